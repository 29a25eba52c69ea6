// JSON Schemas of the Loops area. kind, effort and output.apply carry x-error-code so that their
// refusals answer the spec's own codes (unsupported_loop_kind ...), not invalid_request.
import type { JsonSchema } from '../http/route.js';
import { STOP_REASONS } from './types.js';
import { obj, projectIdField } from '../http/schemas.js';

const idList = (max: number) =>
  ({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: 64 },
    maxItems: max,
    uniqueItems: true,
  }) as const satisfies JsonSchema;

/** The start request; the llm extractor is offered only when the service has an LLM endpoint. */
export const loopRequestBody = (llm: boolean) =>
  obj(
    {
      kind: {
        enum: ['graph_extraction', 'hydrate'],
        description: 'graph_extraction or hydrate (otherwise unsupported_loop_kind).',
        'x-error-code': 'unsupported_loop_kind',
        'x-reason': 'must be graph_extraction or hydrate',
      },
      project_id: projectIdField,
      goal: {
        type: 'string',
        minLength: 1,
        maxLength: 2000,
        pattern: '\\S',
        description: 'What the loop is for; not blank.',
        'x-reason': 'must be 1 to 2000 characters, not blank',
      },
      context: obj(
        {
          source_ids: { ...idList(50), description: 'Document ids; required (at least one) for graph_extraction.' },
          subject: {
            type: 'string',
            minLength: 1,
            maxLength: 200,
            description: 'hydrate: an entity name whose neighbourhood is gathered.',
          },
          slice_id: {
            type: 'string',
            minLength: 1,
            maxLength: 64,
            description:
              'hydrate only: a committed slice; each iteration gathers through it (its compile with the goal ' +
              'as query, budget growing with the iteration).',
          },
        },
        [],
        { default: {} },
      ),
      schema: obj({ shape_ids: { ...idList(10), description: 'Required (at least one) for graph_extraction.' } }, [], {
        default: {},
      }),
      loop: obj({
        effort: {
          enum: ['agentic', 'agentic_plus'],
          description: 'agentic (default) or agentic_plus (otherwise unsupported_loop_effort).',
          'x-error-code': 'unsupported_loop_effort',
          'x-reason': 'must be agentic or agentic_plus',
        },
        max_iterations: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
        quality_threshold: { type: 'number', minimum: 0, maximum: 1, default: 0.8 },
        extractor: llm
          ? ({
              enum: ['builtin', 'llm'],
              default: 'builtin',
              description: 'llm: the configured OpenAI-compatible endpoint.',
            } as const)
          : ({
              enum: ['builtin', 'llm'],
              default: 'builtin',
              description: 'llm is offered only when the service has LLM_BASE_URL configured.',
              allOf: [{ not: { const: 'llm' }, 'x-reason': 'llm needs LLM_BASE_URL configured on the service' }],
            } as const),
      }),
      output: obj({
        type: { const: 'delta' },
        apply: {
          const: false,
          description: 'Must not be true (apply_not_supported_for_loops).',
          'x-error-code': 'apply_not_supported_for_loops',
          'x-reason': 'must be false or omitted',
        },
      }),
      dry_run: { type: 'boolean', default: false },
    },
    ['kind', 'goal'],
    {
      if: { required: ['kind'], properties: { kind: { const: 'graph_extraction' } } },
      then: {
        properties: {
          context: {
            required: ['source_ids'],
            properties: {
              source_ids: { minItems: 1, 'x-reason': 'graph_extraction needs at least one source document' },
              slice_id: { not: {}, 'x-reason': 'only hydrate loops gather through a slice' },
            },
          },
          schema: {
            required: ['shape_ids'],
            properties: { shape_ids: { minItems: 1, 'x-reason': 'graph_extraction needs at least one shape' } },
          },
        },
      },
    },
  );

const links = {
  type: 'object',
  properties: {
    self: { type: 'string' },
    events: { type: 'string' },
    checkpoints: { type: 'string' },
    cancel: { type: 'string' },
    delta: { type: 'string' },
    audit: { type: 'string' },
  },
} as const satisfies JsonSchema;

export const loopStartSchema = {
  type: 'object',
  required: ['loop_id', 'delta_id', 'links', 'request_id'],
  properties: {
    loop_id: { type: 'string' },
    delta_id: { type: 'string', description: 'The staged delta the loop writes into.' },
    status: { const: 'queued' },
    kind: { type: 'string' },
    project_id: { type: 'string' },
    credits_reserved: { type: 'number' },
    links,
    request_id: { type: 'string' },
  },
} as const satisfies JsonSchema;

export const dryRunSchema = {
  type: 'object',
  properties: {
    dry_run: { const: true },
    project_id: { type: 'string' },
    plan: {
      type: 'object',
      properties: {
        kind: { type: 'string' },
        workflow_type: { type: 'string' },
        effort: { type: 'string' },
        max_iterations: { type: 'integer' },
        quality_threshold: { type: 'number' },
        extractor: { type: 'string' },
        goal: { type: 'string' },
        subject: { type: ['string', 'null'] },
        slice: {
          type: ['object', 'null'],
          properties: { id: { type: 'string' }, name: { type: 'string' }, version: { type: 'integer' } },
        },
        sources: { type: 'array', items: { type: 'object' } },
        shapes: { type: 'array', items: { type: 'object' } },
        steps_per_iteration: { type: 'array', items: { type: 'string' } },
        credits: { type: 'object', properties: { per_iteration: { type: 'number' }, estimate: { type: 'number' } } },
      },
    },
  },
} as const satisfies JsonSchema;

export const loopStatusSchema = {
  type: 'object',
  // Every field is always present, whether Temporal or (while it is unreachable) the graph answers.
  required: [
    'loop_id',
    'kind',
    'status',
    'goal',
    'subject',
    'effort',
    'max_iterations',
    'quality_threshold',
    'extractor',
    'iteration',
    'quality',
    'delta_id',
    'workflow_id',
    'credits',
    'stop_reason',
    'created_at',
    'started_at',
    'finished_at',
    'error',
    'links',
  ],
  properties: {
    loop_id: { type: 'string' },
    kind: { type: 'string' },
    status: { enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] },
    goal: { type: 'string' },
    subject: { type: ['string', 'null'] },
    effort: { type: 'string' },
    max_iterations: { type: 'integer' },
    quality_threshold: { type: 'number' },
    extractor: { type: 'string' },
    iteration: { type: 'integer', description: 'Iterations completed so far.' },
    quality: { type: ['number', 'null'] },
    delta_id: { type: 'string' },
    workflow_id: { type: 'string', description: 'loop-<loop_id> in the Temporal UI' },
    credits: {
      type: 'object',
      properties: {
        reserved: { type: 'number' },
        spent: { type: ['number', 'null'], description: 'null until settled' },
      },
    },
    stop_reason: {
      enum: [...STOP_REASONS, null],
      description:
        'Why the loop ended (null until it has): quality_reached (the threshold was met), no_progress (an ' +
        'iteration staged no new entity or relationship), max_iterations, cancelled, failed. Only iterations ' +
        'that ran are charged.',
    },
    created_at: { type: 'string' },
    started_at: { type: ['string', 'null'] },
    finished_at: { type: ['string', 'null'] },
    error: { type: ['string', 'null'] },
    links,
  },
} as const satisfies JsonSchema;

export const eventsSchema = {
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
          time: { type: 'string' },
          activity_name: { type: ['string', 'null'] },
          iteration: { type: ['integer', 'null'] },
          attempt: { type: ['integer', 'null'] },
          summary: { type: 'string' },
        },
      },
    },
    next_after_sequence: { type: 'integer', description: 'Pass as after_sequence to continue.' },
    has_more: { type: 'boolean' },
  },
} as const satisfies JsonSchema;

export const checkpointsSchema = {
  type: 'object',
  properties: {
    loop_id: { type: 'string' },
    checkpoints: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          iteration: { type: 'integer' },
          quality: { type: 'number' },
          quality_components: { type: 'object' },
          entities_staged: { type: 'integer' },
          relationships_staged: { type: 'integer' },
          entities_new: { type: 'integer' },
          relationships_new: { type: 'integer' },
          resolved_to_existing: { type: 'integer' },
          rejected: { type: 'integer' },
          characters: { type: 'integer' },
          changed: { type: 'string' },
          sequence: { type: 'integer' },
          time: { type: 'string' },
        },
      },
    },
  },
} as const satisfies JsonSchema;
