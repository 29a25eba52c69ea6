// Facts as edges (docs/facts.md): a memory with subject, predicate and object also stands in the
// graph as the domain relationship (subject)-[:PREDICATE_TYPE {memory_id, valid_from, valid_to}]->(object),
// staged in the same delta as the memory and kept in step by its corrections. The type is derived
// from the predicate the way shapes name types (upper snake case); it is staged through the delta
// draft (validated, a $parameter of the statement, never Cypher text). Relationship type names are
// database-wide tokens Neo4j never reclaims, so a project may introduce only so many.
import type { Tx } from '../db/graph.js';
import type { DeltaDraft } from '../deltas/draft.js';
import type { PropValue } from '../deltas/props.js';
import { invalid } from '../errors/catalogue.js';
import { MAX_RELATIONSHIP_TYPES, RESERVED_TYPES } from '../shapes/definition.js';

const REL_TYPE = /^[A-Z][A-Z0-9_]{0,63}$/;

/** Types the engine's own links use around memories, documents and contexts (besides RESERVED_TYPES). */
const ENGINE_LINK_TYPES = new Set([
  'HAS_SUBJECT',
  'HAS_OBJECT',
  'HAS_CHUNK',
  'NEXT',
  'IN_COLLECTION',
  'MENTIONS',
  'EXTRACTED_FROM',
  'RELEVANT_TO',
  'SELECTED',
]);

/** Kinds of memory that carry valid time (valid_from, valid_to). */
export const TIMED_KINDS = new Set(['fact', 'decision', 'preference']);

/**
 * The relationship type a predicate stands as: letters and digits kept (accents dropped), every
 * other run of characters one underscore, upper case ("works with" → WORKS_WITH). A type the
 * engine uses for its own links gets a _REF suffix (as bridges name them). Null when nothing is
 * left, the first character is not a letter, or the name is longer than 64 characters: the
 * memory is kept, with no edge.
 */
export function factType(predicate: string): string | null {
  const words = predicate
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  if (words.length === 0) return null;
  const base = words.join('_').toUpperCase();
  const type = RESERVED_TYPES.has(base) || ENGINE_LINK_TYPES.has(base) ? `${base}_REF` : base;
  return REL_TYPE.test(type) ? type : null;
}

export interface ValidTime {
  valid_from?: string | null;
  valid_to?: string | null;
}

/** 400 naming the field when a bound is not a date-time or the interval ends before it starts. */
export function checkValidTime(time: ValidTime, field: string): { from: Date | null; to: Date | null } {
  const parse = (value: string | null | undefined, name: string): Date | null => {
    if (value === undefined || value === null) return null;
    const at = new Date(value);
    if (Number.isNaN(at.getTime())) throw invalid(`${field}/${name}`, 'must be a date-time');
    return at;
  };
  const from = parse(time.valid_from, 'valid_from');
  const to = parse(time.valid_to, 'valid_to');
  if (from && to && to.getTime() < from.getTime()) throw invalid(`${field}/valid_to`, 'must not be before valid_from');
  return { from, to };
}

/** The edge's properties: the memory it stands for and its validity (absent bounds are not stored). */
export function edgeProps(memoryId: string, from: Date | null, to: Date | null): Record<string, PropValue> {
  return { memory_id: memoryId, ...(from ? { valid_from: from } : {}), ...(to ? { valid_to: to } : {}) };
}

/**
 * Bound: a type already in the database costs nothing new; a new one is allowed while the project's facts use fewer
 * than MAX_RELATIONSHIP_TYPES distinct types.
 */
export class FactTypes {
  private distinct: Set<string> | null = null;
  private readonly known = new Set<string>();

  constructor(
    private readonly tx: Tx,
    private readonly projectId: string,
  ) {}

  async check(type: string, field: string): Promise<void> {
    if (this.known.has(type)) return;
    const row = await this.tx.one('memories/relationship_type_known', { type });
    if (row?.known === true) {
      this.known.add(type);
      return;
    }
    if (this.distinct === null) {
      const used = await this.tx.one('memories/fact_predicates', { project_id: this.projectId });
      const predicates = (used?.predicates ?? []) as string[];
      this.distinct = new Set(predicates.map(factType).filter((t): t is string => t !== null));
    }
    if (!this.distinct.has(type) && this.distinct.size >= MAX_RELATIONSHIP_TYPES)
      throw invalid(
        field,
        `would introduce relationship type ${type}; this project's facts already use ${this.distinct.size} distinct ` +
          `types, at most ${MAX_RELATIONSHIP_TYPES} (reuse a predicate, or declare the type in a shape)`,
      );
    this.distinct.add(type);
    this.known.add(type);
  }
}

/** Stages the fact edge of one memory (nothing when the predicate gives no type). Returns its id. */
export async function stageFactEdge(
  draft: DeltaDraft,
  types: FactTypes,
  fact: {
    memoryId: string;
    subjectId: string;
    objectId: string;
    predicate: string;
    from: Date | null;
    to: Date | null;
  },
  field: string,
): Promise<string | null> {
  const type = factType(fact.predicate);
  if (type === null) return null;
  await types.check(type, field);
  return draft.createRelationship(fact.subjectId, type, fact.objectId, edgeProps(fact.memoryId, fact.from, fact.to));
}

export interface FactEdge {
  relationship_id: string;
  from_id: string;
  to_id: string;
  type: string;
}

/** The committed fact edges that stand for one memory. */
export async function factEdges(tx: Tx, projectId: string, memoryId: string): Promise<FactEdge[]> {
  return tx.run<FactEdge>('memories/fact_edges', { id: memoryId, project_id: projectId });
}
