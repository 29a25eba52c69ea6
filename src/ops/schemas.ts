// Response schemas of the operational routes (/readyz, GET /v1/status).
import type { JsonSchema } from '../http/route.js';

const when = { type: 'string', format: 'date-time' };
const dependency: JsonSchema = {
  type: 'object',
  required: ['status', 'since'],
  properties: { status: { enum: ['up', 'down'] }, since: { ...when, description: 'When the current status began.' } },
};
const detailedDependency: JsonSchema = {
  ...dependency,
  required: ['status', 'since', 'last_error', 'outages'],
  properties: {
    ...(dependency.properties as object),
    last_error: { type: ['string', 'null'] },
    outages: { type: 'integer', minimum: 0 },
  },
};
const engineStates = { enum: ['running', 'restarting', 'failed', 'stopped'] };
const publicEngine: JsonSchema = {
  type: 'object',
  required: ['name', 'state', 'since', 'restarts'],
  properties: { name: { type: 'string' }, state: engineStates, since: when, restarts: { type: 'integer', minimum: 0 } },
};

export const readinessSchema: JsonSchema = {
  type: 'object',
  required: ['status', 'neo4j', 'temporal', 'dependencies', 'engines'],
  properties: {
    status: { enum: ['ready', 'unavailable'] },
    neo4j: { type: 'boolean' },
    temporal: { type: 'boolean' },
    dependencies: {
      type: 'object',
      required: ['neo4j', 'temporal'],
      properties: { neo4j: dependency, temporal: dependency },
    },
    engines: {
      type: 'array',
      description: 'Engines this process started and supervises (empty with external engines).',
      items: publicEngine,
    },
    request_id: { type: 'string' },
  },
};

export const opsStatusSchema: JsonSchema = {
  type: 'object',
  required: ['ready', 'dependencies', 'engines', 'worker', 'started_at', 'uptime_seconds', 'request_id'],
  properties: {
    ready: { type: 'boolean' },
    dependencies: {
      type: 'object',
      required: ['neo4j', 'temporal'],
      properties: { neo4j: detailedDependency, temporal: detailedDependency },
    },
    engines: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'state', 'since', 'pid', 'restarts', 'last_exit', 'message'],
        properties: {
          name: { type: 'string' },
          state: engineStates,
          since: when,
          pid: { type: ['integer', 'null'] },
          restarts: { type: 'integer', minimum: 0 },
          last_exit: {
            oneOf: [
              { type: 'null' },
              {
                type: 'object',
                required: ['code', 'signal', 'at'],
                properties: { code: { type: ['integer', 'null'] }, signal: { type: ['string', 'null'] }, at: when },
              },
            ],
          },
          message: { type: ['string', 'null'], description: 'Why the supervisor gave up, when it did.' },
        },
      },
    },
    worker: {
      oneOf: [
        { type: 'null', description: 'No worker runs in this process.' },
        {
          type: 'object',
          required: ['state', 'since', 'restarts', 'last_error'],
          properties: {
            state: { enum: ['running', 'reconnecting', 'stopped'] },
            since: when,
            restarts: { type: 'integer', minimum: 0 },
            last_error: { type: ['string', 'null'] },
          },
        },
      ],
    },
    started_at: when,
    uptime_seconds: { type: 'integer', minimum: 0 },
    request_id: { type: 'string' },
  },
};
