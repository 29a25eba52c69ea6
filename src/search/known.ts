// Search and recall as the graph knew it at a moment (known_at, transaction time; docs/facts.md):
// the index statements' rows less what the graph did not know then (or has changed since), and the
// nodes and relationships it knew then put back as they were (src/deltas/known.ts).
import type { Graph } from '../db/graph.js';
import { knownAt, validAt, type KnownAt, type KnownNode } from '../deltas/known.js';
import type { RankedHit } from './hybrid.js';
import type { GraphEdgeRow } from '../graph/views.js';

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

const WORD = /[\p{L}\p{N}]+/gu;
const wordsOf = (text: string): string[] => text.toLowerCase().match(WORD) ?? [];

/**
 * The word ranking as of known_at: what is put back has no place in the full-text index, so the
 * index's hits and the put-back items whose text holds a word of the question are ordered by the
 * share of the question's words their text holds, the index's order after that.
 */
export function wordsThen<T>(query: string, hits: RankedHit<T>[], back: RankedHit<T>[]): RankedHit<T>[] {
  const words = [...new Set(wordsOf(query))];
  const share = (text: string): number => {
    const have = new Set(wordsOf(text));
    return words.length === 0 ? 0 : words.filter((w) => have.has(w)).length / words.length;
  };
  return [...hits, ...back.filter((h) => share(h.text) > 0)]
    .map((h, i) => ({ h, i, s: share(h.text) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map(({ h }) => h);
}

/** What edgesThen reads of a row: the ends and type, and the id and end names where the statement gives them. */
type EdgeEnds = Pick<GraphEdgeRow, 'source' | 'target' | 'type'> &
  Partial<Pick<GraphEdgeRow, 'id' | 'source_name' | 'target_name'>>;

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
  const kept = rows
    .filter((r) => ![r.id, r.source, r.target].some((x) => typeof x === 'string' && unknown.has(x)))
    .map((r) => ({
      ...r,
      source_name: nameThen(r.source, r.source_name),
      target_name: nameThen(r.target, r.target_name),
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
