// The hops by meaning of a small project compare the question with the project's terms in process (docs/recall.md,
// "Hops by meaning"): the vectors of a project of at most EXACT_UP_TO terms are read once (memories/term_vectors) and
// held here, and each list question's walk (memories/walk_held) checks, by the terms' keys, that they are still the
// project's. Compared in the statement, each question read every term's vector again: 17 ms of a 30 ms walk at p50
// on the 100k bench (307 terms), where the check costs about 1 ms. Terms change only as the mention worker makes
// new ones and the embedding worker gives them a vector (a term's name, kind and the vector of its name under one
// model never change), so the same keys mean the same vectors.
import type { Graph, Reader } from '../db/graph.js';
import { cosine, EXACT_UP_TO } from '../search/meaning.js';

/** A term of a small project with a vector of the model, as held. */
interface HeldTerm {
  key: string;
  kind: string;
  vector: number[];
}

/** A small project's terms with a vector of one model: their keys in key order (the check), and each term. */
export interface HeldTerms {
  keys: string[];
  terms: HeldTerm[];
}

/** What is held of a project: its terms, or 'large' (more than EXACT_UP_TO: the vector index answers). */
export type TermsHeld = HeldTerms | 'large';

/** A term the walk starts from, with its weight (memories/walk_from_terms). */
export interface WalkStart {
  key: string;
  weight: number;
}

/** At most this many vector components are held, all projects together (8 bytes each: 32 MB). */
const MAX_HELD_NUMBERS = 4_000_000;

/** At most this many projects are held (a large project's entry holds no vector, only that it is large). */
const MAX_HELD_PROJECTS = 4_096;

/** The projects' term vectors one process holds, least recently used dropped first. */
export class TermVectors {
  private readonly entries = new Map<string, TermsHeld>();
  private readonly loading = new Map<string, Promise<TermsHeld>>();
  private numbers = 0;

  constructor(
    /** Bounds of what is held: vector components, all projects together, and projects. */
    private readonly limits: { numbers: number; projects: number } = {
      numbers: MAX_HELD_NUMBERS,
      projects: MAX_HELD_PROJECTS,
    },
  ) {}

  /** The project's terms as held, read first when not held or when `again` (what was held is no longer current). */
  async held(tx: Reader, projectId: string, model: string, again: boolean): Promise<TermsHeld> {
    const name = `${projectId}\u0000${model}`;
    const entry = again ? undefined : this.entries.get(name);
    if (entry !== undefined) {
      // Used again: last to be dropped.
      this.entries.delete(name);
      this.entries.set(name, entry);
      return entry;
    }
    const pending = again ? undefined : this.loading.get(name);
    if (pending) return pending;
    const load = this.load(tx, projectId, model).then((loaded) => {
      this.store(name, loaded);
      return loaded;
    });
    this.loading.set(name, load);
    try {
      return await load;
    } finally {
      if (this.loading.get(name) === load) this.loading.delete(name);
    }
  }

  /**
   * Drops what is held of a project, whatever the model: its next walk reads its terms' vectors again (the read
   * rehearsal's project, whose read of them is a statement to plan like any other, src/search/warmReads.ts).
   */
  forget(projectId: string): void {
    for (const name of [...this.entries.keys()]) if (name.startsWith(`${projectId}\u0000`)) this.drop(name);
  }

  private async load(tx: Reader, projectId: string, model: string): Promise<TermsHeld> {
    const row = await tx.one<{ large: boolean; held: { key: string; kind: string; vector: number[] }[] }>(
      'memories/term_vectors',
      { project_id: projectId, model, exact_up_to: EXACT_UP_TO },
    );
    if (!row || row.large) return 'large';
    return { keys: row.held.map((t) => t.key), terms: row.held };
  }

  private store(name: string, held: TermsHeld): void {
    this.drop(name);
    const numbers = sizeOf(held);
    if (numbers > this.limits.numbers) return;
    while (this.numbers + numbers > this.limits.numbers || this.entries.size >= this.limits.projects) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.drop(oldest);
    }
    this.entries.set(name, held);
    this.numbers += numbers;
  }

  private drop(name: string): void {
    const held = this.entries.get(name);
    if (held === undefined) return;
    this.entries.delete(name);
    this.numbers -= sizeOf(held);
  }
}

const sizeOf = (held: TermsHeld): number =>
  held === 'large' ? 0 : held.terms.reduce((n, t) => n + t.vector.length, 0);

/**
 * The terms a question's walk starts from, as memories/walk_near chooses them: of the terms with a vector that are
 * not people and whose cosine to the question is at least `floor`, the `count` nearest (ties by key) whose cosine is
 * within `spread` of the nearest's, each weighing (its cosine - (nearest's - spread)).
 */
export function walkStarts(
  held: HeldTerms,
  question: readonly number[],
  floor: number,
  count: number,
  spread: number,
): WalkStart[] {
  const near: { key: string; similarity: number }[] = [];
  for (const term of held.terms) {
    if (term.kind === 'person' || term.vector.length !== question.length) continue;
    const similarity = cosine(term.vector, question);
    if (similarity >= floor) near.push({ key: term.key, similarity });
  }
  near.sort((a, b) => b.similarity - a.similarity || (a.key < b.key ? -1 : 1));
  const nearest = near[0]?.similarity ?? 0;
  return near
    .slice(0, count)
    .map((t) => ({ key: t.key, weight: t.similarity - (nearest - spread) }))
    .filter((t) => t.weight > 0);
}

const byGraph = new WeakMap<Graph, TermVectors>();

/** The term vectors held for a graph (one per service: its projects' terms). */
export function termVectorsOf(graph: Graph): TermVectors {
  let held = byGraph.get(graph);
  if (!held) {
    held = new TermVectors();
    byGraph.set(graph, held);
  }
  return held;
}
