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

export function obj(properties: Record<string, JsonSchema>, required: string[] = [], extra: Partial<JsonSchema> = {}): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false, ...extra };
}

export function cursorQuery(extra: Record<string, JsonSchema> = {}, maxLimit = 100, defaultLimit = 20): JsonSchema {
  return {
    type: 'object',
    properties: {
      project_id: projectIdField,
      limit: { type: 'integer', minimum: 1, maximum: maxLimit, default: defaultLimit },
      cursor: { type: 'string', maxLength: 512, description: 'The next_cursor of the previous page.' },
      ...extra,
    },
    additionalProperties: false,
  };
}
