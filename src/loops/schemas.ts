// JSON Schemas of the Loops area. kind and effort are plain strings here so that unsupported values
// answer the spec's own codes (unsupported_loop_kind, unsupported_loop_effort), not invalid_request.
import type { JsonSchema } from '../http/route.js';
import { obj, projectIdField } from '../http/schemas.js';

const idList = (max: number): JsonSchema => ({ type: 'array', items: { type: 'string', minLength: 1, maxLength: 64 }, maxItems: max, uniqueItems: true });

export const loopRequestBody: JsonSchema = obj({
  kind: { type: 'string', description: 'graph_extraction or hydrate (otherwise unsupported_loop_kind).' },
  project_id: projectIdField,
  goal: { type: 'string', minLength: 1, maxLength: 2000, description: 'Required.' },
  context: obj({
    source_ids: { ...idList(50), description: 'Document ids; required (at least one) for graph_extraction.' },
    subject: { type: 'string', minLength: 1, maxLength: 200, description: 'hydrate: an entity name whose neighbourhood is gathered.' },
    slice_id: { type: 'string', minLength: 1, maxLength: 64, description: 'hydrate only: a committed slice; each iteration gathers through it (its compile with the goal as query, budget growing with the iteration).' },
  }),
  schema: obj({ shape_ids: { ...idList(10), description: 'Required (at least one) for graph_extraction.' } }),
  loop: obj({
    effort: { type: 'string', description: 'agentic (default) or agentic_plus (otherwise unsupported_loop_effort).' },
    max_iterations: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    quality_threshold: { type: 'number', minimum: 0, maximum: 1, default: 0.8 },
    extractor: { enum: ['builtin', 'llm'], default: 'builtin', description: 'llm needs LLM_BASE_URL on the service.' },
  }),
  output: obj({ type: { const: 'delta' }, apply: { type: 'boolean', description: 'Must not be true (apply_not_supported_for_loops).' } }),
  dry_run: { type: 'boolean', default: false },
}, ['kind']);

const links: JsonSchema = { type: 'object', properties: { self: { type: 'string' }, events: { type: 'string' }, checkpoints: { type: 'string' }, cancel: { type: 'string' }, delta: { type: 'string' }, audit: { type: 'string' } } };

export const loopStartSchema: JsonSchema = {
  type: 'object',
  required: ['loop_id', 'delta_id', 'links', 'request_id'],
  properties: {
    loop_id: { type: 'string' }, delta_id: { type: 'string', description: 'The staged delta the loop writes into.' },
    status: { const: 'queued' }, kind: { type: 'string' }, project_id: { type: 'string' }, credits_reserved: { type: 'number' },
    links, request_id: { type: 'string' },
  },
};

export const dryRunSchema: JsonSchema = {
  type: 'object',
  properties: {
    dry_run: { const: true }, project_id: { type: 'string' },
    plan: {
      type: 'object',
      properties: {
        kind: { type: 'string' }, workflow_type: { type: 'string' }, effort: { type: 'string' }, max_iterations: { type: 'integer' },
        quality_threshold: { type: 'number' }, extractor: { type: 'string' }, goal: { type: 'string' }, subject: { type: ['string', 'null'] },
        slice: { type: ['object', 'null'], properties: { id: { type: 'string' }, name: { type: 'string' }, version: { type: 'integer' } } },
        sources: { type: 'array', items: { type: 'object' } }, shapes: { type: 'array', items: { type: 'object' } },
        steps_per_iteration: { type: 'array', items: { type: 'string' } },
        credits: { type: 'object', properties: { per_iteration: { type: 'number' }, estimate: { type: 'number' } } },
      },
    },
  },
};

export const loopStatusSchema: JsonSchema = {
  type: 'object',
  properties: {
    loop_id: { type: 'string' }, kind: { type: 'string' },
    status: { enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] },
    goal: { type: 'string' }, subject: { type: ['string', 'null'] }, effort: { type: 'string' },
    max_iterations: { type: 'integer' }, quality_threshold: { type: 'number' }, extractor: { type: 'string' },
    iteration: { type: 'integer', description: 'Iterations completed so far.' }, quality: { type: ['number', 'null'] },
    delta_id: { type: 'string' }, workflow_id: { type: 'string', description: 'loop-<loop_id> in the Temporal UI' },
    credits: { type: 'object', properties: { reserved: { type: 'number' }, spent: { type: ['number', 'null'], description: 'null until settled' } } },
    created_at: { type: 'string' }, started_at: { type: ['string', 'null'] }, finished_at: { type: ['string', 'null'] },
    error: { type: ['string', 'null'] }, links,
  },
};

export const eventsSchema: JsonSchema = {
  type: 'object',
  properties: {
    loop_id: { type: 'string' },
    events: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          sequence: { type: 'integer', description: 'The Temporal history event id.' },
          type: { type: 'string', description: 'The history event type in snake case, e.g. activity_task_completed.' },
          time: { type: 'string' }, activity_name: { type: ['string', 'null'] }, iteration: { type: ['integer', 'null'] },
          attempt: { type: ['integer', 'null'] }, summary: { type: 'string' },
        },
      },
    },
    next_after_sequence: { type: 'integer', description: 'Pass as after_sequence to continue.' },
    has_more: { type: 'boolean' },
  },
};

export const checkpointsSchema: JsonSchema = {
  type: 'object',
  properties: {
    loop_id: { type: 'string' },
    checkpoints: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          iteration: { type: 'integer' }, quality: { type: 'number' }, quality_components: { type: 'object' },
          entities_staged: { type: 'integer' }, relationships_staged: { type: 'integer' }, entities_new: { type: 'integer' },
          relationships_new: { type: 'integer' }, resolved_to_existing: { type: 'integer' }, rejected: { type: 'integer' },
          characters: { type: 'integer' }, changed: { type: 'string' }, sequence: { type: 'integer' }, time: { type: 'string' },
        },
      },
    },
  },
};
