// Search and recall as the graph knew it at a moment (known_at, transaction time; docs/facts.md):
// the index statements' rows less what the graph did not know then (or has changed since), and the
// nodes and relationships it knew then put back as they were (src/deltas/known.ts).
import type { Graph } from '../db/graph.js';
import { knownAt, validAt, type KnownAt, type KnownNode } from '../deltas/known.js';
import { EmbeddingsUnavailableError, type Embedder } from '../embeddings/model.js';
import { textHash } from '../embeddings/text.js';
import { nodeText } from '../embeddings/worker.js';
import type { GraphEdgeRow } from '../graph/views.js';
import { contentWords, wordCoverage, type RankedHit } from './hybrid.js';
import { similarityFloor, type Question } from './meaning.js';

export interface Then {
  known: KnownAt;
  /** Ids the statements' rows must not show: unknown then, or changed since (put back as they were). */
  left: Set<string>;
}

export async function readThen(graph: Graph, projectId: string, at: string): Promise<Then> {
  const known = await graph.read((tx) => knownAt(tx, projectId, at));
  return { known, left: new Set([...known.unknown, ...known.changed]) };
}

/** Nodes of a label known then, as they were, valid at `validTime` and not forgotten by `now`. */
export function putBack(then: Then, label: string, validTime: string, now: string): KnownNode[] {
  return [...then.known.nodes.values()]
    .filter((n) => n.labels.includes(label) && validAt(n.props, validTime))
    .filter((n) => typeof n.props.forget_after !== 'string' || Date.parse(n.props.forget_after) > Date.parse(now))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The share of the question's content words a text holds, as the index compares words (0 without any). */
function questionShare(query: string): (text: string) => number {
  const stems = contentWords(query);
  return (text) => (stems.length === 0 ? 0 : wordCoverage(stems, text));
}

/**
 * The word ranking as of known_at: what is put back has no place in the full-text index, so the
 * index's hits and the put-back items whose text holds a content word of the question (compared as the
 * index compares words: src/search/hybrid.ts) are ordered by the share of the question's content words
 * their text holds, the index's order after that.
 */
export function wordsThen<T>(query: string, hits: RankedHit<T>[], back: RankedHit<T>[]): RankedHit<T>[] {
  const share = questionShare(query);
  return [...hits, ...back.filter((h) => share(h.text) > 0)]
    .map((h, i) => ({ h, i, s: share(h.text) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map(({ h }) => h);
}

/** What edgesThen reads of a row: ends and type, and the id, end names and labels where the statement gives them. */
type EdgeEnds = Pick<GraphEdgeRow, 'source' | 'target' | 'type'> &
  Partial<Pick<GraphEdgeRow, 'id' | 'source_name' | 'target_name' | 'source_label' | 'target_label'>>;

const shownLabel = (n: KnownNode | undefined): string | null =>
  n?.labels.filter((l) => !['Knowledge', 'Pending', 'Entity'].includes(l))[0] ?? null;

/** A node's name then: a string property, or null. */
const nameOf = (n: KnownNode | undefined): string | null => (typeof n?.props.name === 'string' ? n.props.name : null);

/**
 * Edge rows (id, type, source, target, names, properties) of the given result ids as of known_at:
 * the rows read now less the relationships (or ends) unknown then, with the names their ends had
 * then, and the relationships known then and gone since, valid at `validTime` (null: any), at most `perNode`
 * per result id.
 */
export function edgesThen<T extends EdgeEnds>(
  then: Then,
  rows: T[],
  ids: string[],
  validTime: string | null,
  perNode: number,
): (T | GraphEdgeRow)[] {
  const { known } = then;
  const unknown = new Set(known.unknown);
  const shown = new Set(ids);
  const nameThen = (id: string, fallback: string | null | undefined): string | null =>
    known.nodes.has(id) ? nameOf(known.nodes.get(id)) : (fallback ?? null);
  // A label read now that the end did not have then (a retype since) is replaced by its type then;
  // one it had then too is kept, so each statement's way of naming an end (Entity or its type) stays.
  const labelThen = (id: string, fallback: string | null | undefined): string | null => {
    const was = known.nodes.get(id);
    if (!was || fallback === null || fallback === undefined || was.labels.includes(fallback)) return fallback ?? null;
    return shownLabel(was);
  };
  const kept = rows
    .filter((r) => ![r.id, r.source, r.target].some((x) => typeof x === 'string' && unknown.has(x)))
    .map((r) => ({
      ...r,
      source_name: nameThen(r.source, r.source_name),
      target_name: nameThen(r.target, r.target_name),
      ...('source_label' in r ? { source_label: labelThen(r.source, r.source_label) } : {}),
      ...('target_label' in r ? { target_label: labelThen(r.target, r.target_label) } : {}),
    }));
  const count = new Map<string, number>();
  const gone: GraphEdgeRow[] = [];
  for (const r of known.relationships) {
    if (!(shown.has(r.source) || shown.has(r.target))) continue;
    if (validTime !== null && !validAt(r.props, validTime)) continue;
    const at = shown.has(r.source) ? r.source : r.target;
    if ((count.get(at) ?? 0) >= perNode) continue;
    count.set(at, (count.get(at) ?? 0) + 1);
    const a = known.nodes.get(r.source);
    const b = known.nodes.get(r.target);
    gone.push({
      id: r.id,
      type: r.type,
      source: r.source,
      target: r.target,
      source_label: shownLabel(a),
      source_name: nameOf(a),
      target_label: shownLabel(b),
      target_name: nameOf(b),
      properties: r.props,
    });
  }
  return [...kept, ...gone];
}

/**
 * Put-back items without a vector to reuse that one read embeds at most (docs/facts.md): the
 * engine's time grows with them, so beyond this many (the ones with most of the question's words
 * first, then the newest) they are found by words alone.
 */
export const EMBEDDED_PER_READ = 32;

/** Vectors of put-back texts embedded at read time, by text hash (model and text), least recently used out. */
const passageVectors = new Map<string, number[]>();
const PASSAGE_CACHE = 4096;

function remember(hash: string, vector: number[]): void {
  passageVectors.delete(hash);
  passageVectors.set(hash, vector);
  while (passageVectors.size > PASSAGE_CACHE) passageVectors.delete(passageVectors.keys().next().value as string);
}

const dot = (a: number[], b: number[]): number => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

/**
 * Meaning as of known_at: the cosine of the question and each put-back item (as it was then) that
 * reaches the similarity floor the vector statements apply, by id. An item still in the graph whose
 * vector was made from the text it had then is compared with that vector in the graph
 * (search/known_similarity); the others (forgotten since, or their text changed) are embedded now
 * as passages, at most EMBEDDED_PER_READ per read and remembered by text; while no engine answers,
 * they are found by words alone. Nothing is stored in the graph.
 */
export async function meaningThen(
  graph: Graph,
  embedder: Embedder | null,
  projectId: string,
  query: string,
  question: Question | null,
  items: KnownNode[],
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const vector = question?.vector ?? null;
  const model = question?.model ?? null;
  if (vector === null || model === null || items.length === 0) return found;
  const texts = items
    .map((n) => ({ node: n, text: nodeText(n.labels, n.props) }))
    .filter((x) => x.text !== '')
    .map((x) => ({ ...x, hash: textHash(model, x.text) }));
  const rows = await graph.read((tx) =>
    // cypher/search/known_similarity.cypher's rows: the item's id and its cosine (declared, not checked).
    tx.run<{ id: string; similarity: number }>('search/known_similarity', {
      items: texts.map((x) => ({ id: x.node.id, hash: x.hash })),
      project_id: projectId,
      model,
      vector,
    }),
  );
  for (const r of rows) found.set(r.id, r.similarity);
  const rest = texts.filter((x) => !found.has(x.node.id));
  for (const x of rest) {
    const cached = passageVectors.get(x.hash);
    if (cached) {
      remember(x.hash, cached);
      found.set(x.node.id, dot(vector, cached));
    }
  }
  const share = questionShare(query);
  const created = (n: KnownNode): number => Date.parse(String(n.props.created_at)) || 0;
  const missing = rest
    .filter((x) => !found.has(x.node.id))
    .map((x) => ({ ...x, share: share(x.text) }))
    .sort((a, b) => b.share - a.share || created(b.node) - created(a.node) || (a.node.id < b.node.id ? -1 : 1));
  if (missing.length > 0 && embedder?.embedPassagesNow && embedder.queriesAvailable()) {
    const chosen = missing.slice(0, EMBEDDED_PER_READ);
    try {
      const vectors = await embedder.embedPassagesNow(chosen.map((x) => x.text));
      chosen.forEach((x, i) => {
        const v = vectors[i];
        if (!v || v.length !== vector.length) return;
        remember(x.hash, v);
        found.set(x.node.id, dot(vector, v));
      });
    } catch (error) {
      if (!(error instanceof EmbeddingsUnavailableError)) throw error;
    }
  }
  const floor = similarityFloor(model);
  for (const [id, similarity] of found) if (similarity < floor) found.delete(id);
  return found;
}

/**
 * The neighbours by meaning as of known_at: the index's hits (less what is left out) and the
 * put-back items near the question, in one order (similarity, then id), at most `wanted`.
 */
export function nearThen<T extends { id: string; score: number }>(near: T[], back: T[], wanted: number): T[] {
  return [...near, ...back]
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, wanted);
}
