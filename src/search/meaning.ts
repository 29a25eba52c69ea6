// The meaning side of every recall path (docs/recall.md): the question embedded once as a query,
// and the vector-index reads that over-fetch across projects and filter to one. Nothing here may
// fail a search: while the engine is down, off or slow, the answer says `degraded: ["semantic"]`
// and the lexical side answers alone.
import type { Reader, Row } from '../db/graph.js';
import { EmbeddingsUnavailableError, type EmbedderDeps } from '../embeddings/model.js';
import type { SearchMode } from './hybrid.js';

/** What a search could not use, published as `degraded` (and the X-Search-Degraded header). */
export type Degraded = 'semantic';

export interface Question {
  /** The query's vector, or null when meaning takes no part (lexical mode, or degraded). */
  vector: number[] | null;
  model: string | null;
  degraded: Degraded[];
}

/**
 * How similar (cosine) a text must be to the question to count as near at all. e5 models compress
 * cosines into a narrow band: with the default multilingual-e5-small, a question's median similarity
 * to unrelated memories was 0.72–0.78 and to its answer 0.76–0.90 (docs/recall.md, "Calibration"),
 * so the floor sits at the unrelated median: it drops the unrelated half, never an answer. Other
 * models (OpenAI's text-embedding-3 spreads cosines far wider and lower) get no floor.
 */
export function similarityFloor(modelId: string | null): number {
  return modelId !== null && /e5/i.test(modelId) ? 0.75 : -1;
}

/** Embeds the question unless the mode is lexical; never throws for the engine's sake. */
export async function embedQuestion(deps: EmbedderDeps, query: string, mode: SearchMode): Promise<Question> {
  if (mode === 'lexical') return { vector: null, model: null, degraded: [] };
  const embedder = deps.embedder;
  if (!embedder) return { vector: null, model: null, degraded: ['semantic'] };
  if (!embedder.queriesAvailable()) {
    // No engine answers now; a question asked before still has its vector (the question cache).
    const cached = embedder.cachedQuestion?.(query);
    return cached && cached.length === embedder.model.dimensions
      ? { vector: cached, model: embedder.model.id, degraded: [] }
      : { vector: null, model: null, degraded: ['semantic'] };
  }
  try {
    const [vector] = await embedder.embedQueries([query]);
    if (!vector || vector.length !== embedder.model.dimensions)
      return { vector: null, model: null, degraded: ['semantic'] };
    return { vector, model: embedder.model.id, degraded: [] };
  } catch (error) {
    if (error instanceof EmbeddingsUnavailableError) return { vector: null, model: null, degraded: ['semantic'] };
    throw error;
  }
}

/** Cosine of two vectors (the engine's vectors are normalized, but an external endpoint's may not be). */
export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** The mode actually served: semantic asked but unavailable is answered lexically. */
export function servedMode(mode: SearchMode, question: Question): SearchMode {
  return question.vector === null ? 'lexical' : mode;
}

/**
 * Neighbours asked of the index first, and at most (it spans every project; we filter to one). The index's time
 * grows with k (bench/recallScale.ts, 100k memories, idle, segments merged at factor 4: k 60 → 5.3 ms, 120 → 8.3,
 * 240 → 11.7, 960 → 27.5 at p50), so the first ask is twice what is wanted, not four times: a project that holds
 * most of the index gets its hits in one ask, and one with a small share gets them from the second, deeper ask.
 */
const FIRST_K = 100;
const MAX_K = 4000;

/**
 * A project holding at most this many nodes of a plane is searched by meaning exactly, each of its vectors compared
 * with the question, instead of through the shared, approximate vector index (cypher/search/held_memories.cypher
 * and nearest.cypher; docs/recall.md, "Exact for small projects"): its neighbours are then the true ones and do not
 * move while other projects write. Past it the index answers (bench/nearExact.ts: 1,000 memories read exactly cost
 * ~12 ms more than the index).
 */
export const EXACT_UP_TO = 500;

/** A hit of a vector statement: its node's id and similarity, beside what the statement adds (declared). */
export interface NearHit {
  id: string;
  similarity: number;
}

/**
 * How deep the index is asked next when an ask of `k` neighbours left `hits` of the `wanted`: as deep as the share of
 * the project's near hits among them says is needed, half as deep again: at least twice as deep, at most eight times
 * (when none or very few were the project's) and MAX_K. A fixed eight times (as before) asked 960
 * neighbours for 60 where 240 held them: on the 100k bench (bench/recallScale.ts, a second project holding a sixth
 * of the index), 6 of 52 questions asked again, and each second ask cost 40-90 ms, the whole tail of hybrid search.
 */
export function deeperK(k: number, hits: number, wanted: number): number {
  const needed = Math.ceil((1.5 * k * wanted) / Math.max(hits, 1));
  return Math.min(Math.max(needed, 2 * k), 8 * k, MAX_K);
}

/**
 * Runs a vector statement (one row: `found`, `floor`, `hits`) asking the index for enough neighbours
 * that `wanted` near hits of this project survive its filter: first max(FIRST_K, 2 × wanted), then
 * deeper (deeperK) while too few came back and deeper neighbours could still be near (the index
 * gave all it was asked for, and its farthest was still above the similarity floor), up to MAX_K. Hits are
 * ordered by similarity, then id, so equal scores always come back in the same order.
 */
export async function nearest<R extends object = Row>(
  tx: Reader,
  statement: string,
  params: Record<string, unknown>,
  question: Question,
  wanted: number,
): Promise<(R & NearHit)[]> {
  return (await nearestRow<R>(tx, statement, params, question, wanted))?.hits ?? [];
}

/** A vector statement's row: what the index gave, and the near hits (ordered, at most the number wanted). */
export interface NearRow<R extends object> {
  found: number;
  floor: number;
  hits: (R & NearHit)[];
}

/**
 * As nearest, the whole row of the last ask (a statement may return more beside its hits: memories/walk_near walks
 * from its hits in the same statement); null for a question without a vector.
 */
export async function nearestRow<R extends object = Row, X extends object = object>(
  tx: Reader,
  statement: string,
  params: Record<string, unknown>,
  question: Question,
  wanted: number,
): Promise<(NearRow<R> & Partial<X>) | null> {
  if (question.vector === null) return null;
  let k = Math.min(Math.max(FIRST_K, wanted * 2), MAX_K);
  const floor = similarityFloor(question.model);
  for (;;) {
    const row = await tx.one<Partial<NearRow<R>> & Partial<X>>(statement, {
      exact_up_to: EXACT_UP_TO,
      ...params,
      vector: question.vector,
      model: question.model,
      k,
      min_similarity: floor,
    });
    const hits = (row?.hits ?? []).slice();
    const found = row?.found ?? 0;
    const farthest = row?.floor ?? -1;
    const exhausted = found < k || farthest < floor || k >= MAX_K;
    if (hits.length >= wanted || exhausted) {
      hits.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1));
      return { ...row, found, floor: farthest, hits: hits.slice(0, wanted) } as NearRow<R> & Partial<X>;
    }
    k = deeperK(k, hits.length, wanted);
  }
}
