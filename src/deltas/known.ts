// Transaction time (docs/facts.md): what the graph knew at a moment, reconstructed from the deltas'
// records (applied_at, reverted_at, change records and snapshots). Reads take the answer as a
// filter on their own statements (`unknown`, `changed`) and the nodes and relationships they must
// put back themselves, as they were then (`nodes`, `relationships`).
import type { Row, Tx } from '../db/graph.js';
import type { Plain } from '../db/values.js';

export interface KnownNode {
  id: string;
  props: Row;
  labels: string[];
}

export interface KnownRelationship {
  id: string;
  type: string;
  source: string;
  target: string;
  props: Row;
}

export interface KnownAt {
  /** The moment, as given (ISO date-time). */
  at: string;
  /** Ids of nodes and relationships present now that the graph did not know then. */
  unknown: string[];
  /** Ids of present nodes whose values then differ from now: a read leaves them out and uses `nodes`. */
  changed: string[];
  /** Nodes known then as they were then: forgotten since (deleted, or reverted) or changed since. */
  nodes: Map<string, KnownNode>;
  /** Relationships known then and gone since, whose two ends were known then. */
  relationships: KnownRelationship[];
}

function unprefixed(props: Row, prefix: string): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(props)) if (k.startsWith(prefix)) out[k.slice(prefix.length)] = v;
  return out;
}

const strings = (v: Plain | undefined): string[] => (Array.isArray(v) ? v.map(String) : []);

/** cypher/deltas/known_unknown.cypher's one row (declared, not checked). */
interface UnknownRow {
  ids: string[];
}

/** cypher/deltas/known_forgotten.cypher's rows: a node, or a relationship (declared, not checked). */
type ForgottenRow = {
  id: string;
  /** The record's properties; those of the node or relationship are under `prefix`. */
  props: Row | null;
  prefix: 'old.' | 'prop.';
} & (
  | { kind: 'node'; labels: string[] | null; type: null; source: null; target: null }
  | { kind: 'relationship'; labels: null; type: string; source: string; target: string }
);

/** cypher/deltas/known_updates.cypher's rows (declared, not checked). */
interface UpdateRow {
  id: string;
  side: 'old' | 'new';
  keys: string[] | null;
  add_labels: string[];
  remove_labels: string[];
  change: Row;
  /** The node as it is now, without its vector; null when it is gone. */
  current: Row | null;
  labels: string[] | null;
  at: string | null;
}

/** Reads what the project's graph knew at `at` (three statements of cypher/deltas/known_*.cypher). */
export async function knownAt(tx: Tx, projectId: string, at: string): Promise<KnownAt> {
  const params = { project_id: projectId, known_at: at };
  const [unknownRows, forgotten, updates] = await tx.runAll<[UnknownRow[], ForgottenRow[], UpdateRow[]]>([
    ['deltas/known_unknown', params],
    ['deltas/known_forgotten', params],
    ['deltas/known_updates', params],
  ]);
  const unknown = new Set(strings(unknownRows?.[0]?.ids));
  const nodes = new Map<string, KnownNode>();
  const relationships = new Map<string, KnownRelationship>();
  for (const row of forgotten ?? []) {
    const props = unprefixed(row.props ?? {}, row.prefix);
    const id = row.id;
    if (row.kind === 'node') nodes.set(id, { id, props, labels: strings(row.labels) });
    else relationships.set(id, { id, type: row.type, source: row.source, target: row.target, props });
  }
  // The first change after the moment of each (node, key) says what the key held then, and of each
  // (node, label) whether the node had the label then (a retype adds one type and removes another).
  const then = new Map<string, Map<string, Plain>>();
  const labelsThen = new Map<string, Map<string, boolean>>();
  const current = new Map<string, KnownNode>();
  for (const row of updates ?? []) {
    const id = row.id;
    const change = row.change ?? {};
    const values = then.get(id) ?? new Map<string, Plain>();
    for (const key of strings(row.keys)) {
      if (!values.has(key)) values.set(key, change[`${row.side}.${key}`] ?? null);
    }
    then.set(id, values);
    // Applied after the moment ('old'): the labels it added were not there, those it removed were.
    // Applied by then and reverted after it ('new'): the other way round.
    const appliedAfter = row.side === 'old';
    const had = labelsThen.get(id) ?? new Map<string, boolean>();
    for (const label of strings(row.add_labels)) if (!had.has(label)) had.set(label, !appliedAfter);
    for (const label of strings(row.remove_labels)) if (!had.has(label)) had.set(label, appliedAfter);
    labelsThen.set(id, had);
    if (row.current && !current.has(id)) current.set(id, { id, props: row.current, labels: strings(row.labels) });
  }
  const changed: string[] = [];
  for (const [id, values] of then) {
    if (unknown.has(id)) continue;
    let node = nodes.get(id);
    if (!node) {
      const now = current.get(id);
      if (!now) continue;
      node = { id, props: { ...now.props }, labels: now.labels };
      nodes.set(id, node);
      changed.push(id);
    }
    for (const [key, value] of values) {
      if (value === null) delete node.props[key];
      else node.props[key] = value;
    }
    delete node.props.embedding;
    const had = labelsThen.get(id);
    if (had && had.size > 0) {
      const labels = node.labels.filter((l) => had.get(l) !== false);
      for (const [label, present] of had) if (present && !labels.includes(label)) labels.push(label);
      node.labels = labels;
    }
  }
  const known = [...relationships.values()].filter((r) => !unknown.has(r.source) && !unknown.has(r.target));
  return { at, unknown: [...unknown].sort(), changed: changed.sort(), nodes, relationships: known };
}

/** No reconstruction: what a read passes when known_at is not asked for. */
export const NOTHING_UNKNOWN = { unknown: [] as string[], changed: [] as string[] };

/** Whether a node or relationship's valid time (valid_from, valid_to) holds at `at`. */
export function validAt(props: Row, at: string): boolean {
  const t = Date.parse(at);
  const from = props.valid_from;
  const to = props.valid_to;
  if (typeof from === 'string' && Date.parse(from) > t) return false;
  if (typeof to === 'string' && Date.parse(to) <= t) return false;
  return true;
}
