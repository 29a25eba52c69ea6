// Facts as edges (docs/facts.md): a memory with subject, predicate and object also stands in the
// graph as the domain relationship (subject)-[:PREDICATE_TYPE {memory_id, valid_from, valid_to}]->(object),
// staged in the same delta as the memory and kept in step by its corrections. The type is the one a
// visible shape declares for the predicate's phrase ("works at" → WORKS_FOR), else derived from the
// predicate the way shapes name types (upper snake case); the memory records it as predicate_type.
// It is staged through the delta draft (validated, a $parameter of the statement, never Cypher
// text). Relationship type names are database-wide tokens Neo4j never reclaims, so a project may
// introduce only so many.
import type { Tx } from '../db/graph.js';
import type { DeltaDraft } from '../deltas/draft.js';
import type { PropValue } from '../deltas/props.js';
import { invalid } from '../errors/catalogue.js';
import { normalizeName } from '../extractor/normalize.js';
import { relationPhrases } from '../extractor/triggers.js';
import { MAX_RELATIONSHIP_TYPES, RESERVED_TYPES } from '../shapes/definition.js';
import { declaredRelationshipTypes, type DeclaredRelationshipType } from '../shapes/store.js';

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

/** Words a predicate may open with that say nothing of the relation ("is employed by", "has joined"). */
const AUXILIARIES = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being', 'has', 'have', 'had']);

/** A predicate as the words a phrase is matched on: normalized, leading auxiliaries dropped. */
export function predicateKey(predicate: string): string {
  const words = predicate
    .split(/\s+/u)
    .map(normalizeName)
    .filter((w) => w !== '');
  while (words.length > 1 && AUXILIARIES.has(words[0] as string)) words.shift();
  return words.join(' ');
}

/**
 * Which declared type a predicate's phrase names, in three tiers; the first tier that names any type
 * decides, and only when it names exactly one (else no match: the predicate's own type stands):
 * 1. a pattern a project shape declares; 2. a pattern a built-in shape declares, or a type's name read
 * as words ("works for"); 3. the English verbs the extractor knows for the type ("work at", "hired by":
 * a verb whose subject is the target counts only in the passive; its uncertain ones, such as "move to",
 * not at all, nor a bare active verb, such as "lead", for a type held one at a time). Each head word in
 * every verb form.
 */
export class PredicatePhrases {
  private readonly tiers: Map<string, Set<string>>[] = [new Map(), new Map(), new Map()];
  readonly types: Set<string>;

  constructor(declared: DeclaredRelationshipType[]) {
    this.types = new Set(declared.map((d) => d.type));
    for (const d of declared)
      for (const phrase of relationPhrases(d)) {
        // The lexicon's uncertain verbs ("move to") name no type on their own.
        if (phrase.source === 'english' && phrase.weight < 1) continue;
        // A bare active verb of the lexicon ("leads", "heads") says too little to stand for a relation held one
        // at a time: "Cy leads the migration" is no change of employer.
        if (phrase.source === 'english' && d.one_at_a_time && phrase.keys.length === 1 && !phrase.reverse) continue;
        if (phrase.reverse && phrase.keys.at(-1) !== 'by') phrase.keys.push('by');
        const tier = phrase.source === 'english' ? 2 : phrase.source === 'pattern' && !d.builtin ? 0 : 1;
        const key = phrase.keys.join(' ');
        const named = this.tiers[tier]!.get(key) ?? new Set<string>();
        named.add(d.type);
        this.tiers[tier]!.set(key, named);
      }
  }

  match(predicate: string): string | null {
    const key = predicateKey(predicate);
    for (const tier of this.tiers) {
      const named = tier.get(key);
      if (named) return named.size === 1 ? ([...named][0] as string) : null;
    }
    return null;
  }
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
  private phrases: PredicatePhrases | null = null;

  constructor(
    private readonly tx: Tx,
    readonly projectId: string,
  ) {}

  /**
   * The relationship type a predicate stands as: its own type when a visible shape declares it, else the
   * declared type its phrase names (PredicatePhrases), else its own type (factType). Null: no type.
   */
  async resolve(predicate: string): Promise<string | null> {
    const own = factType(predicate);
    this.phrases ??= new PredicatePhrases(await declaredRelationshipTypes(this.tx, this.projectId));
    if (own !== null && this.phrases.types.has(own)) return own;
    return this.phrases.match(predicate) ?? own;
  }

  async check(type: string, field: string): Promise<void> {
    if (this.known.has(type)) return;
    const row = await this.tx.one('memories/relationship_type_known', { type });
    if (row?.known === true) {
      this.known.add(type);
      return;
    }
    if (this.distinct === null) {
      const used = await this.tx.one('memories/fact_predicates', { project_id: this.projectId });
      // Each fact's recorded predicate_type, or its predicate for one written before types were resolved.
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

/** The type a stored memory stands as: the predicate_type it records, else (written before types were
 * resolved) its predicate's own type, which its edge was made with. */
export function recordedType(memory: Record<string, unknown>): string | null {
  if (typeof memory.predicate_type === 'string') return memory.predicate_type;
  return typeof memory.predicate === 'string' ? factType(memory.predicate) : null;
}

/** Stages the fact edge of one memory (nothing when the predicate gives no type). Returns its id. */
export async function stageFactEdge(
  draft: DeltaDraft,
  types: FactTypes,
  fact: {
    memoryId: string;
    subjectId: string;
    objectId: string;
    /** The memory's predicate_type (FactTypes.resolve, or recordedType for a stored memory). */
    type: string | null;
    from: Date | null;
    to: Date | null;
  },
  field: string,
): Promise<string | null> {
  const { type } = fact;
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
