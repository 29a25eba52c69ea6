// JSON Schema fragments shared by several areas.
import type { JsonSchema } from './route.js';

// Fragments are `as const` (the objects ajv compiles are unchanged): request types are derived from them
// (src/http/input.ts), so a field's type is written once, in its schema.
export const uuid = { type: 'string', minLength: 1, maxLength: 64 } as const satisfies JsonSchema;
export const dateTime = { type: 'string', format: 'date-time' } as const satisfies JsonSchema;
export const projectIdField = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: 'Optional with a project-scoped key (must match it); required with an organization-scoped key.',
} as const satisfies JsonSchema;
export const projectQuery = {
  type: 'object',
  properties: { project_id: projectIdField },
} as const satisfies JsonSchema;

/** A set of strings: 1 to maxItems distinct ones, each 1 to maxLength characters. */
export function stringSet<const N extends number, const L extends number>(maxItems: N, maxLength: L) {
  return {
    type: 'array',
    minItems: 1,
    maxItems,
    uniqueItems: true,
    items: { type: 'string', minLength: 1, maxLength },
  } as const satisfies JsonSchema;
}

/** An object schema of exactly these properties; generic, so its literal type (and the derived input type) flows. */
export function obj<
  const P extends Record<string, JsonSchema>,
  const R extends readonly string[] = readonly [],
  const E extends JsonSchema = Record<never, never>,
>(properties: P, required: R = [] as unknown as R, extra: E = {} as E): ObjectSchema<P, R> & E {
  return { type: 'object', properties, required, additionalProperties: false, ...extra };
}

/** What obj() builds. */
export type ObjectSchema<P, R> = { type: 'object'; properties: P; required: R; additionalProperties: false };

/** The body of a write that names only its project. */
export const projectOnlyBody = obj({ project_id: projectIdField });

/** The query of a governed DELETE: apply=false stages the deletion for review. */
export const applyQuery = {
  type: 'object',
  properties: { project_id: projectIdField, apply: { type: 'boolean', default: true } },
  additionalProperties: false,
} as const satisfies JsonSchema;

/** The query of an event log read in sequence order (a loop's, a sync's): after_sequence and limit. */
export const afterSequenceQuery = {
  type: 'object',
  properties: {
    project_id: projectIdField,
    after_sequence: { type: 'integer', minimum: 0, default: 0 },
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
  },
  additionalProperties: false,
} as const satisfies JsonSchema;

/** The path parameters of a route on one record: /…/:id. */
export const idParams = obj({ id: uuid }, ['id']);

/** Cursors are opaque base64url tokens; only a next_cursor this endpoint returned is accepted (else 400). */
export const cursorField = {
  type: 'string',
  minLength: 1,
  maxLength: 512,
  pattern: '^[A-Za-z0-9_-]+$',
  description:
    'The next_cursor of the previous page of this endpoint, unchanged (an opaque base64url token). Any other ' +
    'value is a 400.',
} as const satisfies JsonSchema;

/** The answer of a cursor-paged list: its items under `key`, has_more and next_cursor (null on the last page). */
export function cursorPage<
  const K extends string,
  const I extends JsonSchema,
  const X extends Record<string, JsonSchema> = Record<never, never>,
>(key: K, items: I, extra: X = {} as X) {
  const paging = {
    has_more: { type: 'boolean', description: 'More items may follow: ask for them with next_cursor.' },
    next_cursor: {
      type: ['string', 'null'],
      description: 'The cursor of the next page: a string whenever has_more is true, null when it is false.',
    },
  } as const;
  return {
    type: 'object',
    properties: { ...extra, [key]: { type: 'array', items }, ...paging },
  } as { type: 'object'; properties: X & { [P in K]: { type: 'array'; items: I } } & typeof paging };
}

/** The query of a cursor-paged list: project_id, limit, cursor and the list's own filters. */
export function cursorQuery<const X extends Record<string, JsonSchema> = Record<never, never>>(
  extra: X = {} as X,
  maxLimit = 100,
  defaultLimit = 20,
) {
  return {
    type: 'object',
    properties: {
      project_id: projectIdField,
      limit: { type: 'integer', minimum: 1, maximum: maxLimit, default: defaultLimit },
      cursor: cursorField,
      ...extra,
    },
    additionalProperties: false,
  } as const satisfies JsonSchema;
}

/** The governed-write answer's fields as the Bridge and Connections areas publish them (nothing required). */
export const governedWriteProperties = {
  id: { type: ['string', 'null'] },
  status: { enum: ['applied', 'staged', 'failed'] },
  project_id: { type: 'string' },
  delta_id: { type: 'string' },
  applied: { type: 'boolean' },
  error: { type: 'object' },
} as const satisfies Record<string, JsonSchema>;

/**
 * The governed-write result (docs/deltas.md); the marker makes the OpenAPI document publish its 409 as the
 * failed write.
 */
export const governedWriteSchema = <const X extends Record<string, JsonSchema> = Record<never, never>>(
  extra: X = {} as X,
) =>
  ({
    'x-governed-write': true,
    type: 'object',
    required: ['id', 'status', 'project_id', 'delta_id', 'applied', 'request_id'],
    properties: {
      id: { type: ['string', 'null'] },
      status: { enum: ['applied', 'staged', 'failed'] },
      project_id: { type: 'string' },
      delta_id: { type: 'string' },
      applied: { type: 'boolean' },
      request_id: { type: 'string' },
      error: {
        type: 'object',
        required: ['code', 'message', 'details'],
        properties: { code: { type: 'string' }, message: { type: 'string' }, details: { type: 'object' } },
        description: 'present when status is failed',
      },
      ...extra,
    },
  }) as const;
