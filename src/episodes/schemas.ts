// JSON Schemas of the Episodes area (docs/episodes.md), compiled by ajv and published in OpenAPI.
import type { JsonSchema } from '../http/route.js';
import { cursorField, cursorPage, cursorQuery, projectIdField } from '../http/schemas.js';
import { memoryNodeSchema } from '../memories/schemas.js';

export const episodeSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    key: { type: 'string', description: 'The episode key memories were written with.' },
    memory_count: { type: 'integer', description: 'Its committed memories.' },
    first_observed_at: { type: 'string', format: 'date-time', description: 'When its first memory was observed.' },
    last_observed_at: { type: 'string', format: 'date-time', description: 'When its latest memory was observed.' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
} as const satisfies JsonSchema;

export const listEpisodesQuery = cursorQuery();

export const listEpisodesAnswer = cursorPage('episodes', episodeSchema);

export const getEpisodeQuery = {
  type: 'object',
  properties: {
    project_id: projectIdField,
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 50,
      description: 'Memories of the page, in observed order.',
    },
    cursor: cursorField,
  },
  additionalProperties: false,
} as const satisfies JsonSchema;

export const getEpisodeAnswer = cursorPage('memories', memoryNodeSchema, { episode: episodeSchema });
