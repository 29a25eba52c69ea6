// JSON Schemas of context compiles: the request bodies (a saved slice's compile, an inline or saved
// slice through /v1/context/*) and the context pack they answer with.
import type { JsonSchema } from '../http/route.js';
import { knownAtField, matchSchema } from '../search/schemas.js';
import { obj, projectIdField } from '../http/schemas.js';
import { FORMATS, MAX_TOKENS, MIN_TOKENS, PLANES, TOKENIZERS } from '../slices/definition.js';
import { inlineDefinitionSchema } from '../slices/schemas.js';

const compileFields = {
  query: {
    type: 'string',
    maxLength: 2000,
    description: "Overrides the slice's default query; empty or absent with no default compiles the most recent items.",
  },
  as_of: {
    type: 'string',
    format: 'date-time',
    description:
      'Only items created by then; a rolling time window ends then; and valid time (docs/facts.md): only facts ' +
      'and relationships that held then (valid_from at or before it, valid_to after it). Default: none (null in ' +
      'the pack), the window ends at the compile and validity is judged now.',
  },
  known_at: {
    ...knownAtField,
    description:
      'Transaction time: compile only what the graph knew at this moment (docs/facts.md): what deltas applied ' +
      'later added is left out, what they changed or deleted is shown as it was, what a revert after it removed ' +
      'is shown. Without as_of, validity is judged and a rolling window ends at known_at. Shown in the pack as ' +
      'known_at and part of its operational hash. Not reconstructed: relationships forgotten since are not ' +
      'walked from the subject, and put-back chunks carry no document title.',
  },
  max_tokens: {
    type: 'integer',
    minimum: MIN_TOKENS,
    maximum: MAX_TOKENS,
    description: "Overrides the slice's budget.max_tokens.",
  },
  explain: { type: 'boolean', default: false, description: 'List every candidate with in_context and its reason.' },
  project_id: projectIdField,
} as const satisfies Record<string, JsonSchema>;

export const sliceCompileBody = obj(compileFields);

export const contextCompileBody = obj(
  {
    slice: {
      ...inlineDefinitionSchema,
      description: 'An inline slice definition (same fields as POST /v1/slices, without name).',
    },
    slice_id: { type: 'string', minLength: 1, maxLength: 64, description: 'A committed slice of the project.' },
    ...compileFields,
  },
  [],
  {
    oneOf: [{ required: ['slice'] }, { required: ['slice_id'] }],
    description: 'Exactly one of slice (inline) or slice_id.',
  },
);

const itemSchema = {
  type: 'object',
  properties: {
    ref: {
      type: 'string',
      pattern: '^[mde][1-9][0-9]*$',
      description: 'm<n> memory, d<n> document chunk, e<n> entity; cited in the text',
    },
    id: { type: 'string' },
    type: { enum: ['memory', 'chunk', 'entity'] },
    label: { type: 'string' },
    name: { type: 'string' },
    text: { type: 'string', description: 'as rendered: whitespace runs collapsed' },
    score: {
      type: 'number',
      description:
        'Σ over the sources that found it of weight / (60 + rank) (docs/recall.md: a word hit weighs its share)',
    },
    reason: { type: 'string' },
    tokens: { type: 'integer', minimum: 0, description: 'tokens of its rendered line' },
  },
} as const satisfies JsonSchema;

const sectionUsage = {
  type: 'object',
  properties: {
    share: { type: 'number' },
    quota: { type: 'integer' },
    used_tokens: { type: 'integer' },
    items: { type: 'integer' },
  },
} as const satisfies JsonSchema;

export const packSchema = {
  type: 'object',
  required: [
    'pack_id',
    'slice',
    'query',
    'as_of',
    'format',
    'budget',
    'sections',
    'edges',
    'text',
    'markdown',
    'candidate_count',
    'truncated',
    'omitted',
    'hashes',
  ],
  properties: {
    pack_id: {
      type: 'string',
      pattern: '^ctx_[0-9a-f]{32}$',
      description: 'Derived from the three hashes: the same graph and request give the same id.',
    },
    slice: {
      type: ['object', 'null'],
      properties: { id: { type: 'string' }, version: { type: 'integer' } },
      description: 'null for an inline slice',
    },
    query: { type: 'string' },
    as_of: { type: ['string', 'null'] },
    known_at: { type: 'string', description: 'Present when the compile was asked with known_at (docs/facts.md).' },
    format: { enum: [...FORMATS] },
    budget: {
      type: 'object',
      properties: {
        max_tokens: { type: 'integer' },
        used_tokens: { type: 'integer', description: 'tokens of text; never above max_tokens' },
        tokenizer: { enum: [...TOKENIZERS] },
        sections: { type: 'object', properties: Object.fromEntries(PLANES.map((p) => [p, sectionUsage])) },
      },
    },
    sections: {
      type: 'array',
      items: {
        type: 'object',
        properties: { plane: { enum: [...PLANES] }, items: { type: 'array', items: itemSchema } },
      },
    },
    edges: {
      type: 'array',
      description: 'Committed relationships among the chosen entities that fit the budget.',
      items: {
        type: 'object',
        properties: {
          source: { type: 'string' },
          type: { type: 'string' },
          target: { type: 'string' },
          source_ref: { type: 'string' },
          target_ref: { type: 'string' },
        },
      },
    },
    text: { type: 'string', description: 'The context as rendered in format (counted against the budget).' },
    markdown: {
      type: 'string',
      description: 'The same items as citable Markdown (equal to text when format is markdown).',
    },
    candidate_count: { type: 'integer' },
    truncated: { type: 'boolean', description: 'true when a candidate was left out for the budget' },
    omitted: {
      type: 'object',
      properties: {
        count: { type: 'integer' },
        by_reason: { type: 'object', properties: { duplicate: { type: 'integer' }, budget: { type: 'integer' } } },
      },
    },
    candidates: {
      type: 'array',
      description: 'explain: true only',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          plane: { enum: [...PLANES] },
          type: { type: 'string' },
          label: { type: 'string' },
          name: { type: 'string' },
          rank: { type: 'integer' },
          score: { type: 'number' },
          in_context: { type: 'boolean' },
          ref: { type: ['string', 'null'] },
          omitted_reason: { enum: ['duplicate', 'budget', null] },
          reason: { type: 'string' },
          match: matchSchema,
        },
      },
    },
    hashes: {
      type: 'object',
      properties: {
        structural: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        operational: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        denotative: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      },
    },
  },
} as const satisfies JsonSchema;
