// JSON Schema fragments shared by several areas.
import type { JsonSchema } from './route.js';

export const uuid: JsonSchema = { type: 'string', minLength: 1, maxLength: 64 };
export const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
export const projectIdField: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: 'Optional with a project-scoped key (must match it); required with an organization-scoped key.',
};
export const projectQuery: JsonSchema = {
  type: 'object',
  properties: { project_id: projectIdField },
};

export function obj(
  properties: Record<string, JsonSchema>,
  required: string[] = [],
  extra: Partial<JsonSchema> = {},
): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false, ...extra };
}

/** The path parameters of a route on one record: /…/:id. */
export const idParams: JsonSchema = obj({ id: uuid }, ['id']);

/** Cursors are opaque base64url tokens; only a next_cursor this endpoint returned is accepted (else 400). */
export const cursorField: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 512,
  pattern: '^[A-Za-z0-9_-]+$',
  description:
    'The next_cursor of the previous page of this endpoint, unchanged (an opaque base64url token). Any other ' +
    'value is a 400.',
};

/** The answer of a cursor-paged list: its items under `key`, has_more and next_cursor (null on the last page). */
export function cursorPage(key: string, items: JsonSchema, extra: Record<string, JsonSchema> = {}): JsonSchema {
  return {
    type: 'object',
    properties: {
      ...extra,
      [key]: { type: 'array', items },
      has_more: { type: 'boolean' },
      next_cursor: { type: ['string', 'null'] },
    },
  };
}

export function cursorQuery(extra: Record<string, JsonSchema> = {}, maxLimit = 100, defaultLimit = 20): JsonSchema {
  return {
    type: 'object',
    properties: {
      project_id: projectIdField,
      limit: { type: 'integer', minimum: 1, maximum: maxLimit, default: defaultLimit },
      cursor: cursorField,
      ...extra,
    },
    additionalProperties: false,
  };
}

/**
 * The governed-write result (docs/deltas.md); the marker makes the OpenAPI document publish its 409 as the
 * failed write.
 */
export const governedWriteSchema = (extra: Record<string, JsonSchema> = {}): JsonSchema => ({
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
});
