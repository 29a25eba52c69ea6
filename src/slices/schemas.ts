// JSON Schemas of the Context & Slices area: the slice definition (saved by /v1/slices, or sent
// inline to /v1/context/compile) and the slice read back. Rules across fields are in definition.ts.
import type { JsonSchema } from '../http/route.js';
import { obj, projectIdField, stringSet } from '../http/schemas.js';
import { MEMORY_KINDS, episodeField } from '../memories/schemas.js';
import { REL_TYPE_PATTERN, SHAPE_NAME_PATTERN } from '../shapes/schemas.js';
import { DEFAULT_TOKENS, FORMATS, MAX_TOKENS, MIN_TOKENS, PLANES, TOKENIZERS } from './definition.js';
import { DURATION_PATTERN } from './duration.js';

const ids = <const N extends number>(max: N) => stringSet(max, 64);
const labelPattern = '^[A-Z][A-Za-z0-9_]{0,63}$';
const share = { type: 'number', minimum: 0, maximum: 1 } as const satisfies JsonSchema;
const planeField = (description: string) => ({ enum: [...PLANES], description }) as const satisfies JsonSchema;

export const planesSchema = {
  type: 'array',
  minItems: 1,
  uniqueItems: true,
  items: planeField('a plane'),
  description: 'Default: all three (memory, document, entity).',
} as const satisfies JsonSchema;

export const filtersSchema = obj(
  {
    memory: obj({
      kinds: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...MEMORY_KINDS] } },
      episode: { ...episodeField, description: 'Only memories of this episode (its key: docs/episodes.md).' },
    }),
    document: obj({
      document_ids: ids(100),
      tags: { ...stringSet(50, 100), description: 'Documents in any of these collections, by normalised name.' },
    }),
    entity: obj({
      types: {
        type: 'array',
        minItems: 1,
        maxItems: 50,
        uniqueItems: true,
        items: { type: 'string', pattern: labelPattern },
        description: 'Entity labels: Person, Organization …',
      },
      shape_ids: ids(20),
    }),
  },
  [],
  { description: 'Per-plane filters; a filter for a plane the slice does not read is a 400.' },
);

export const subjectSchema = {
  description:
    'The entity the slice focuses on: {id} of a committed entity, or {name, type?} matched by normalised ' +
    'name (and label) at compile time.',
  oneOf: [
    obj({ id: { type: 'string', minLength: 1, maxLength: 64 } }, ['id']),
    obj({ name: { type: 'string', minLength: 1, maxLength: 200 }, type: { type: 'string', pattern: labelPattern } }, [
      'name',
    ]),
  ],
} as const satisfies JsonSchema;

const windowField = {
  enum: ['created_at', 'date_observed'],
  description:
    'Default created_at. date_observed applies to memories; chunks use created_at. Entities are not windowed.',
} as const satisfies JsonSchema;
export const timeWindowSchema = {
  description:
    'Either a fixed range {field?, from?, to?} (inclusive, date-times) or a rolling one {field?, last: ' +
    'ISO-8601 duration} ending at as_of (or the time of the compile).',
  oneOf: [
    obj({
      field: windowField,
      from: { type: 'string', format: 'date-time' },
      to: { type: 'string', format: 'date-time' },
    }),
    obj(
      {
        field: windowField,
        last: {
          type: 'string',
          pattern: DURATION_PATTERN,
          maxLength: 40,
          description: 'ISO-8601 duration: P30D, P1Y2M, PT12H, P2W',
        },
      },
      ['last'],
    ),
  ],
} as const satisfies JsonSchema;

export const budgetSchema = obj({
  max_tokens: { type: 'integer', minimum: MIN_TOKENS, maximum: MAX_TOKENS, description: `Default ${DEFAULT_TOKENS}.` },
  tokenizer: { enum: [...TOKENIZERS], description: 'BPE encoding the budget is counted in. Default cl100k_base.' },
  sections: obj({ memory: share, document: share, entity: share }, [], {
    description:
      'Share of the item budget each plane fills first; shares sum to at most 1 (else 400), a share for a ' +
      'plane not read is a 400. Default: equal shares over the planes read. Unused budget spills over to the ' +
      'other planes.',
  }),
});

/**
 * A filter (and, with sections, a budget share) for a plane the request does not read is a 400: published
 * as one if/then per plane (planes absent means all three, so the rule needs planes given), checked by ajv
 * alone (its x-reason is the 400's field reason). Shared by slice definitions and /v1/search.
 */
export function onlyPlanesRead(sections: boolean): JsonSchema[] {
  return PLANES.map((plane) => {
    const notRead = { not: {}, 'x-reason': `applies only when planes includes ${plane}` };
    return {
      if: { required: ['planes'], properties: { planes: { not: { contains: { const: plane } } } } },
      then: {
        properties: {
          filters: { properties: { [plane]: notRead } },
          ...(sections ? { budget: { properties: { sections: { properties: { [plane]: notRead } } } } } : {}),
        },
      },
    };
  });
}

/** The definition fields, shared by create, new version and the inline compile. */
export const definitionFields = {
  description: { type: 'string', maxLength: 2000 },
  planes: planesSchema,
  filters: filtersSchema,
  subject: subjectSchema,
  hops: { type: 'integer', minimum: 0, maximum: 2, description: 'Neighbourhood depth around the subject. Default 1.' },
  relationship_types: {
    type: 'array',
    maxItems: 50,
    uniqueItems: true,
    items: { type: 'string', pattern: REL_TYPE_PATTERN, maxLength: 64 },
    description: 'Relationship types the subject traversal follows. Default: all.',
  },
  time_window: timeWindowSchema,
  query: { type: 'string', maxLength: 2000, description: 'Default query; a compile may give its own.' },
  budget: budgetSchema,
  format: { enum: [...FORMATS], description: 'How the pack text is rendered and counted. Default markdown.' },
} as const satisfies Record<string, JsonSchema>;

const writeFields = {
  project_id: projectIdField,
  apply: { type: 'boolean', default: true, description: 'false leaves the delta staged for review.' },
} as const satisfies Record<string, JsonSchema>;

export const createSliceBody = obj(
  {
    name: {
      type: 'string',
      pattern: SHAPE_NAME_PATTERN,
      minLength: 1,
      maxLength: 64,
      description: 'Lowercase slug, unique in the project; all versions share it.',
    },
    ...definitionFields,
    ...writeFields,
  },
  ['name'],
  { allOf: onlyPlanesRead(true) },
);

export const versionSliceBody = obj({ ...definitionFields, ...writeFields }, [], { allOf: onlyPlanesRead(true) });

export const inlineDefinitionSchema = obj(definitionFields, [], { allOf: onlyPlanesRead(true) });

const nullableString = { type: ['string', 'null'] } as const satisfies JsonSchema;

export const sliceSchema = {
  type: 'object',
  description: 'A slice version with its full, normalised definition.',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    version: { type: 'integer', minimum: 1 },
    project_id: { type: 'string' },
    description: nullableString,
    planes: { type: 'array', items: { enum: [...PLANES] } },
    filters: { type: 'object' },
    subject: { type: ['object', 'null'] },
    hops: { type: 'integer', minimum: 0, maximum: 2 },
    relationship_types: { type: ['array', 'null'], items: { type: 'string' } },
    time_window: { type: ['object', 'null'] },
    query: nullableString,
    budget: {
      type: 'object',
      properties: {
        max_tokens: { type: 'integer' },
        tokenizer: { enum: [...TOKENIZERS] },
        sections: { type: 'object' },
      },
    },
    format: { enum: [...FORMATS] },
    supersedes: { ...nullableString, description: 'id of the version this one replaced' },
    superseded_by: { ...nullableString, description: 'id of the committed version that replaced this one' },
    created_at: nullableString,
    updated_at: nullableString,
  },
} as const satisfies JsonSchema;
