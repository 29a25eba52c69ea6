// JSON Schemas of saved context packs: the save body (a compile body plus apply), the stored
// summary a read answers with, and the save's governed-write answer.
import type { JsonSchema } from '../http/route.js';
import { PLANES, TOKENIZERS } from '../slices/definition.js';
import { contextCompileBody, packSchema } from '../context/schemas.js';
import { governedWriteSchema } from '../http/schemas.js';

export const savePackBody = {
  ...contextCompileBody,
  properties: {
    ...contextCompileBody.properties,
    apply: {
      type: 'boolean',
      default: true,
      description: 'false stages the saved pack for review (origin context); the compile itself is the same.',
    },
  },
} as const satisfies JsonSchema;

/** The fields a saved pack shares with the compiled pack are the compiled pack's own schemas. */
const compiled = packSchema.properties;

export const savedPackSchema = {
  type: 'object',
  required: [
    'id',
    'pack_id',
    'project_id',
    'slice',
    'query',
    'as_of',
    'format',
    'budget',
    'hashes',
    'candidate_count',
    'truncated',
    'item_count',
    'selected',
    'created_at',
    'delta_id',
  ],
  properties: {
    id: { type: 'string', description: 'The saved pack (a :ContextPack node); one per save.' },
    pack_id: { ...compiled.pack_id, description: 'The compiled pack id at save time (derived from the hashes).' },
    project_id: { type: 'string' },
    slice: {
      ...compiled.slice,
      description: 'The saved slice it was compiled from (COMPILED_FROM); null for an inline slice.',
    },
    query: compiled.query,
    as_of: compiled.as_of,
    known_at: compiled.known_at,
    format: compiled.format,
    budget: {
      type: 'object',
      properties: {
        max_tokens: { type: 'integer' },
        used_tokens: { type: 'integer' },
        tokenizer: { enum: [...TOKENIZERS] },
      },
    },
    hashes: compiled.hashes,
    candidate_count: compiled.candidate_count,
    truncated: compiled.truncated,
    item_count: {
      type: 'integer',
      minimum: 0,
      description:
        'Items the pack selected when saved. selected lists those still in the graph: a deleted item takes its ' +
        'SELECTED link with it, the hashes stay.',
    },
    selected: {
      type: 'array',
      description: 'The SELECTED links still present, in pack order (plane order, then rank).',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          type: { enum: ['memory', 'chunk', 'entity'] },
          ref: { type: 'string', pattern: '^[mde][1-9][0-9]*$' },
          section: { enum: [...PLANES] },
          rank: { type: 'integer', minimum: 1 },
        },
      },
    },
    created_at: { type: 'string' },
    delta_id: { type: 'string' },
  },
} as const satisfies JsonSchema;

/** The compiled pack with the id of the saved record (the answer's id), as GET /v1/context/packs/{id} takes it. */
export const savePackResponse = governedWriteSchema({
  pack: {
    ...packSchema,
    required: ['id', ...packSchema.required],
    properties: {
      id: {
        type: 'string',
        description: 'The saved pack record (GET /v1/context/packs/{id}); pack_id is its content id.',
      },
      ...packSchema.properties,
    },
    description: 'The compiled pack that was saved (or staged), with the id of the saved record.',
  },
});
