// JSON Schemas of the Memories area (docs/memories.md, docs/deltas.md), compiled by ajv and published in OpenAPI.
import type { JsonSchema } from '../http/route.js';
import { asOfField, knownAtField, searchModeField } from '../search/schemas.js';
import { obj, projectIdField } from '../http/schemas.js';
import { RECALL_CHANNELS } from './channels.js';

export const MEMORY_KINDS = ['preference', 'decision', 'fact', 'lesson', 'observation', 'signal'] as const;
export const MEMORY_SCOPES = ['agent', 'commons', 'project'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

export const VALID_FROM =
  'When the fact starts to hold (valid time; fact, decision or preference only). Absent: since always, as far as ' +
  'the graph knows. Also set on the fact edge (docs/facts.md).';
export const VALID_TO =
  'When the fact stops holding (valid time; fact, decision or preference only; not before valid_from). Absent: ' +
  'still true.';

export const entityRef = {
  description:
    'An entity the memory is about: a name (matched by normalised name within the project, created as a ' +
    'Concept when absent), or {id} of a committed entity, or {name, type}. A name must keep a letter or digit ' +
    'after normalisation (case folded, spacing collapsed, edge punctuation dropped): 400 otherwise.',
  oneOf: [
    { type: 'string', minLength: 1, maxLength: 200 },
    {
      type: 'object',
      properties: {
        id: { type: 'string', maxLength: 64 },
        name: { type: 'string', minLength: 1, maxLength: 200 },
        type: { type: 'string', pattern: '^[A-Z][A-Za-z0-9_]{0,63}$' },
      },
      additionalProperties: false,
      anyOf: [{ required: ['id'] }, { required: ['name'] }],
    },
  ],
} as const satisfies JsonSchema;

/** The episode a memory came from (docs/episodes.md): on writes, and as a filter of recall. */
export const episodeField = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  pattern: '\\S',
  description:
    'The conversation, session, thread, meeting, call or ticket the memory came from: a key of your choosing, ' +
    '1-200 characters with at least one that is not a space, compared exactly (case and spaces count). Memories ' +
    'of one episode are linked (:Memory)-[:IN_EPISODE]->(:Episode) and chained (:Memory)-[:NEXT]->(:Memory) in ' +
    'observed order; recall ranks whole episodes too (docs/episodes.md).',
} as const satisfies JsonSchema;

export const observedAtField = {
  type: 'string',
  format: 'date-time',
  description:
    'When it was said or happened. Default: now (the items of a batch without it: now, a millisecond apart, in ' +
    'the order given). date_observed is its date (UTC). Orders an episode, and a question naming a time ' +
    '("in May 2023", "on 3 June") prefers memories observed then (docs/recall.md).',
} as const satisfies JsonSchema;

export const itemProperties = {
  content: { type: 'string', minLength: 1, maxLength: 10000 },
  kind: {
    enum: [...MEMORY_KINDS],
    description:
      'Default fact when a predicate is given (the memory states a relation: valid time and contradiction checks ' +
      'apply), else observation.',
  },
  scope: {
    enum: [...MEMORY_SCOPES],
    description: 'Default project. Recorded on the memory; recall is always within the project.',
  },
  subject: entityRef,
  predicate: {
    type: 'string',
    minLength: 1,
    maxLength: 100,
    description:
      'Optional relation the memory states between subject and object (used by contradiction checks). With both ' +
      'subject and object, the memory also stands as the relationship (subject)-[:TYPE]->(object): the type a ' +
      'visible shape declares for these words (works at, is employed by → WORKS_FOR), else the predicate in upper ' +
      'snake case (likes → LIKES; docs/facts.md); a predicate that gives no type (no ASCII letter first, ' +
      'longer than 64) keeps the memory without the edge; 400 when it would be a 201st distinct new type for the ' +
      "project's facts.",
  },
  object: entityRef,
  source_context: { type: 'string', maxLength: 2000 },
  forget_after: {
    type: 'string',
    format: 'date-time',
    description: 'Recalled (search, synthesize) only until then; a direct read still returns it with recallable false.',
  },
  forget_reason: { type: 'string', maxLength: 2000 },
  valid_from: { type: 'string', format: 'date-time', description: VALID_FROM },
  valid_to: { type: 'string', format: 'date-time', description: VALID_TO },
  episode: episodeField,
  observed_at: observedAtField,
} as const satisfies Record<string, JsonSchema>;

/**
 * Valid time belongs to facts, decisions and preferences (docs/facts.md): with any other kind, or none and no
 * predicate (an observation), valid_from and valid_to are refused, naming the field. No kind with a predicate is
 * a fact.
 */
const TIMED_ONLY =
  'only a fact, decision or preference has valid time (kind fact, decision or preference, or a predicate and no kind)';
const validTimeRule = {
  if: {
    not: {
      anyOf: [
        { required: ['kind'], properties: { kind: { enum: ['fact', 'decision', 'preference'] } } },
        { required: ['predicate'], not: { required: ['kind'] } },
      ],
    },
  },
  then: {
    properties: {
      valid_from: { not: {}, 'x-reason': TIMED_ONLY },
      valid_to: { not: {}, 'x-reason': TIMED_ONLY },
    },
  },
} as const satisfies JsonSchema;

/** One memory of a batch (and the fields of a single one). */
export const memoryItem = obj(itemProperties, ['content'], { allOf: [validTimeRule] });

export const createMemoryBody = obj(
  {
    ...itemProperties,
    shape_id: { type: 'string', maxLength: 64, description: 'Default: the built-in memory shape.' },
    project_id: projectIdField,
    apply: { type: 'boolean', default: true },
    memories: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: memoryItem,
      description: 'Batch form: 1 to 100 memories, one delta, atomic.',
    },
  },
  [],
  {
    description:
      'Either one memory (content and its fields at the top level) or a batch (memories, each item with its ' +
      'own fields), never both.',
    oneOf: [{ required: ['content'] }, { required: ['memories'] }],
    allOf: [validTimeRule],
    if: { required: ['memories'] },
    then: {
      properties: Object.fromEntries(
        Object.keys(itemProperties).map((k) => [
          k,
          {
            not: {},
            'x-reason':
              k === 'content' ? 'must be omitted when memories is given' : 'must be inside each item of memories',
          },
        ]),
      ),
    },
  },
);

export const memoryNodeSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    type: { const: 'memory' },
    name: { type: 'string' },
    properties: {
      type: 'object',
      properties: {
        kind: { enum: [...MEMORY_KINDS] },
        content: { type: 'string' },
        date_observed: { type: 'string', format: 'date', description: 'single read only' },
        memory_schema: { type: 'string' },
        scope: { enum: [...MEMORY_SCOPES] },
        subject: { type: ['string', 'null'] },
        predicate: { type: ['string', 'null'] },
        object: { type: ['string', 'null'] },
        source_context: { type: ['string', 'null'] },
        forget_after: { type: ['string', 'null'] },
        forget_reason: { type: ['string', 'null'] },
        valid_from: { type: ['string', 'null'], format: 'date-time' },
        valid_to: { type: ['string', 'null'], format: 'date-time' },
        episode: { type: ['string', 'null'], description: 'The key of its episode, or null.' },
        observed_at: {
          type: 'string',
          format: 'date-time',
          description: 'When it was said or happened (a memory written before episodes: its created_at).',
        },
      },
    },
    plane: { const: 'memory' },
    project_id: { type: 'string', description: 'single read only' },
    recallable: { type: 'boolean', description: 'single read only: false once forget_after has passed' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
} as const satisfies JsonSchema;

export const edgeSchema = {
  type: 'object',
  description: 'A committed relationship among or around the returned nodes.',
  properties: {
    id: { type: ['string', 'null'] },
    type: { type: 'string', description: 'Neo4j relationship type, e.g. HAS_SUBJECT' },
    source: { type: 'string' },
    target: { type: 'string' },
    source_label: { type: ['string', 'null'] },
    source_name: { type: ['string', 'null'] },
    target_label: { type: ['string', 'null'] },
    target_name: { type: ['string', 'null'] },
    properties: { type: 'object' },
  },
} as const satisfies JsonSchema;

export const searchBody = obj({
  query: {
    type: 'string',
    maxLength: 2000,
    description:
      'Free text; empty or absent returns the most recent memories. A query with no searchable word (only ' +
      'punctuation) matches nothing.',
  },
  limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
  kinds: { type: 'array', items: { enum: [...MEMORY_KINDS] }, uniqueItems: true },
  mode: searchModeField,
  as_of: asOfField,
  known_at: knownAtField,
  episode: { ...episodeField, description: 'Only memories of this episode (its key; docs/episodes.md).' },
  channels: {
    type: 'array',
    minItems: 1,
    uniqueItems: true,
    items: { enum: [...RECALL_CHANNELS] },
    description:
      "Hybrid mode: the channels that rank (default all): words (full-text), meaning (each memory's vector), " +
      'context (the vector of the memory before it in its episode and its own), episode (whole episodes ranked, ' +
      'their memories with them), hops (memories linked to the people and things the question names) and time ' +
      '(memories observed when the question says). Semantic mode uses meaning and context of them, lexical words. ' +
      'docs/recall.md.',
  },
  project_id: projectIdField,
});

export const synthesizeBody = obj(
  {
    query: { type: 'string', minLength: 1, maxLength: 2000 },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 12, description: 'Largest evidence set.' },
    project_id: projectIdField,
  },
  ['query'],
);
