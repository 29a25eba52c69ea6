// The published parts every hybrid search answer shares (docs/recall.md): the mode asked and served,
// the `match` object on each result, and what the answer had to do without (`degraded`).
import type { JsonSchema } from '../http/route.js';
import { SEARCH_MODES } from './hybrid.js';
import { RRF_K } from './fusion.js';
import type { Degraded } from './meaning.js';
import { invalid } from '../errors/catalogue.js';

export const PLANES = ['memory', 'document', 'entity'] as const;
export type Plane = (typeof PLANES)[number];

export const searchModeSchema = {
  enum: [...SEARCH_MODES],
  description:
    'hybrid (words and meaning fused), lexical (full-text only) or semantic (vector index only). In an ' +
    'answer: the mode served, which is lexical when meaning was unavailable (see degraded).',
} as const satisfies JsonSchema;

export const searchModeField = { ...searchModeSchema, default: 'hybrid' } as const satisfies JsonSchema;

/** as_of on reads (docs/facts.md): the moment whose valid facts are read; absent, now. */
export const asOfField = {
  type: 'string',
  format: 'date-time',
  description:
    'Valid time: read what held at this moment (facts, decisions and preferences whose valid_from is at or ' +
    'before it and whose valid_to is after it, and relationships likewise; docs/facts.md). Absent: what holds now.',
} as const satisfies JsonSchema;

export const knownAtField = {
  type: 'string',
  format: 'date-time',
  description:
    'Transaction time: read only what the graph knew at this moment, reconstructed from the applied deltas ' +
    '(applied_at, reverted_at, their change records and snapshots): what a delta applied later added is left ' +
    "out, what it changed (properties, an entity's type) or deleted is shown and walked as it was (and found " +
    'by words and, in hybrid and semantic modes, by meaning); what a delta applied by then created and a ' +
    'revert removed after it is shown; a deletion reverted after it is not. Committed knowledge only (not with ' +
    'include_pending). A moment after now reads as now. Without as_of, valid time is read at known_at (the ' +
    'answer the graph would have given then). forget_after is judged against the real now. docs/facts.md.',
} as const satisfies JsonSchema;

/**
 * as_of as one instant (ISO, UTC): 400 naming the field when the engines could not read it (a leap second passes the
 * format but is no instant).
 */
export function asOfInstant(asOf: string | undefined, field: string): string | undefined {
  if (asOf === undefined) return undefined;
  const at = new Date(asOf);
  if (Number.isNaN(at.getTime())) throw invalid(field, 'must be a date-time the service can read as one instant');
  return at.toISOString();
}

/**
 * known_at as one instant (ISO, UTC), 400 naming the field when it is none; a moment after now is
 * read as now (the graph knows nothing later). Committed knowledge only: with include_pending it is a 400.
 */
export function knownAtInstant(knownAt: string | undefined, field: string, includePending = false): string | undefined {
  const at = asOfInstant(knownAt, field);
  if (at === undefined) return undefined;
  if (includePending) throw invalid(field.replace(/known_at$/, 'include_pending'), 'cannot be combined with known_at');
  const now = new Date().toISOString();
  return at < now ? at : now;
}

export const degradedSchema = {
  type: 'array',
  items: { enum: ['semantic'] },
  description:
    'What this answer had to do without: ["semantic"] when the embedding engine was down, off or too slow, ' +
    'so words alone ranked it (also said by the X-Search-Degraded header). Empty otherwise.',
} as const satisfies JsonSchema;

const rank = { type: ['integer', 'null'], minimum: 1 } as const satisfies JsonSchema;

export const matchSchema = {
  type: 'object',
  description: 'Why the result is there (present when a query was given).',
  required: ['lexical_rank', 'semantic_rank', 'similarity', 'graph_rank', 'exact', 'score'],
  properties: {
    lexical_rank: {
      ...rank,
      description: 'Rank in the full-text ranking of its plane, from 1; null if words missed it.',
    },
    semantic_rank: {
      ...rank,
      description: 'Rank in the vector ranking of its plane, from 1; null if meaning missed it.',
    },
    similarity: {
      type: ['number', 'null'],
      minimum: -1,
      maximum: 1,
      description: 'Cosine similarity of the question and the result (4 places); null without a semantic rank.',
    },
    graph_rank: {
      ...rank,
      description:
        "Rank among the subject's neighbourhood, where a subject was given; in memory recall, among the memories " +
        'the hops reach (linked to the people and things the question names).',
    },
    context_rank: {
      ...rank,
      description: 'Memory recall: rank by the context vector (the memory before it in its episode, and it).',
    },
    context_similarity: {
      type: ['number', 'null'],
      minimum: -1,
      maximum: 1,
      description:
        'Memory recall: cosine of the question and the context vector (4 places); null without a context rank.',
    },
    episode_rank: {
      ...rank,
      description: "Memory recall: rank in the episode channel (its episode's rank, then its own).",
    },
    time_rank: {
      ...rank,
      description: "Memory recall: rank among the memories observed when the question's time expression says.",
    },
    rare: {
      type: 'array',
      items: { type: 'string' },
      description:
        "Memory recall: the question's rare words (held by few memories of the project) it holds; ranked first.",
    },
    exact: {
      type: 'array',
      items: { type: 'string' },
      description: "The question's identifiers (codes, keys, versions) found verbatim in the result; ranked first.",
    },
    score: {
      type: 'number',
      minimum: 0,
      description:
        'The fused score: the sum of weight / (60 + rank) over its ranks. A meaning or graph hit weighs 1; in ' +
        "hybrid a word hit weighs the share of the question's content words it holds, 0 below half; in lexical " +
        'every word hit weighs 1 (docs/recall.md).',
    },
  },
} as const satisfies JsonSchema;

/** The response header that says an answer was degraded, for clients that read headers only. */
export function degradedHeaders(degraded: readonly Degraded[]): Record<string, string> | undefined {
  return degraded.length > 0 ? { 'X-Search-Degraded': degraded.join(', ') } : undefined;
}

/** An object schema with more properties (a search result is its node's view plus `match`). */
export function withProperties<
  const S extends { properties: Record<string, JsonSchema> },
  const M extends Record<string, JsonSchema>,
>(schema: S, more: M): Omit<S, 'properties'> & { properties: Omit<S['properties'], keyof M> & M } {
  return { ...schema, properties: { ...schema.properties, ...more } };
}

/** A result of the cross-plane search. */
export const searchNodeSchema = {
  type: 'object',
  description:
    'A result in the memory-node style of spec 2.1: memory nodes exactly as memory search returns them, ' +
    'chunks and entities alike.',
  properties: {
    id: { type: 'string' },
    type: { enum: ['memory', 'chunk', 'entity'] },
    label: { type: 'string', description: 'Its Neo4j label: Memory, Chunk, or the entity type (Person …)' },
    name: {
      type: ['string', 'null'],
      description: 'memory: derived from the content; chunk: "<document title> #<n>"; entity: its name',
    },
    properties: { type: 'object' },
    plane: { enum: [...PLANES] },
    score: {
      type: 'number',
      description:
        'fused reciprocal-rank score: the sum over its rankings of ' + `weight / (${RRF_K} + rank) (= match.score)`,
    },
    match: matchSchema,
    created_at: { type: ['string', 'null'] },
    updated_at: { type: ['string', 'null'] },
  },
} as const satisfies JsonSchema;
