// Graph reads as the graph knew them at a moment (known_at, transaction time; docs/facts.md): the
// committed reads of service.ts, less what the graph did not know then, with what it knew and has
// changed or forgotten since put back as it was (src/deltas/known.ts reconstructs it from deltas).
import type { Row, Tx } from '../db/graph.js';
import type { Plain } from '../db/values.js';
import { notFound } from '../errors/catalogue.js';
import { knownAt, validAt, type KnownAt, type KnownNode, type KnownRelationship } from '../deltas/known.js';
import {
  edgeView,
  graphNodeView,
  isPresent,
  isWhole,
  type EdgeKey,
  type EdgeReadRow,
  type GraphEdgeRow,
  type GraphNodeRow,
  type NodeProps,
} from './views.js';
import { readEdges } from './edgeWalk.js';

const SHOWN_LABEL = (labels: string[]): string | null =>
  labels.filter((l) => !['Knowledge', 'Pending', 'Entity'].includes(l))[0] ?? null;

/** A node known then as a row of the graph statements: its id is its properties' id. */
const nodeRow = (n: KnownNode, distance?: number): GraphNodeRow => ({
  props: { ...n.props, id: n.id } as NodeProps,
  labels: n.labels,
  pending: false,
  ...(distance !== undefined ? { distance } : {}),
});

/** A row of graph/adjacent: a relationship of one of the ids and the node at its other end (declared, not checked). */
interface AdjacentRow {
  from: string;
  id: string;
  type: string;
  source: string;
  target: string;
  props: Row | null;
  node: Row | null;
  labels: string[] | null;
}

/** A property filter of the nodes page, as graph/nodes.cypher applies it. */
function propertyMatches(props: Row, property: string | undefined, value: string | undefined): boolean {
  if (property === undefined || value === undefined) return true;
  const v = props[property];
  const same = (x: Plain | undefined): boolean =>
    x !== null && x !== undefined && (String(x) === value || (typeof x === 'number' && x === Number(value)));
  return Array.isArray(v) ? v.some(same) : same(v);
}

/** Orders strings as Neo4j does (by UTF-16 code unit, as JavaScript's < does). */
const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Orders edge keys as every edges page does: by source node id, then relationship id. */
const byEdgeKey = (a: EdgeKey, b: EdgeKey): number => byString(a.source, b.source) || byString(a.id, b.id);

/**
 * Merges the rows a statement read (already cut to the known ones) with the ones put back, in the page's order
 * (keyOf, compare).
 */
function mergeByKey<T, K>(
  read: T[],
  full: boolean,
  back: T[],
  keyOf: (x: T) => K,
  compare: (a: K, b: K) => number,
  limit: number,
) {
  const last = read.length > 0 ? keyOf(read[read.length - 1]!) : null;
  // A page the statement filled ends at its last key: what is put back beyond it belongs to a later page.
  const extra = back.filter((x) => !full || (last !== null && compare(keyOf(x), last) <= 0));
  const all = [...read, ...extra].sort((a, b) => compare(keyOf(a), keyOf(b)));
  const items = all.slice(0, limit);
  return {
    items,
    hasMore: all.length > limit || full,
    last: items.length > 0 ? keyOf(items[items.length - 1]!) : null,
  };
}

export async function knownNodesPage(
  tx: Tx,
  projectId: string,
  f: {
    label?: string;
    property?: string;
    value?: string;
    validAt: string;
    knownAt: string;
    limit: number;
    afterId: string;
  },
) {
  const known = await knownAt(tx, projectId, f.knownAt);
  const left = new Set([...known.unknown, ...known.changed]);
  const fetch = f.limit + 1 + left.size;
  const rows = await tx.run<GraphNodeRow>('graph/nodes', {
    project_id: projectId,
    labels: f.label ? ['Knowledge', f.label] : ['Knowledge'],
    property: f.property ?? null,
    value: f.value ?? null,
    include_pending: false,
    valid_at: f.validAt,
    after_id: f.afterId,
    limit: fetch,
  });
  const read = rows.filter((r) => isPresent(r.props) && !left.has(r.props.id));
  const back = [...known.nodes.values()]
    .filter(
      (n) =>
        n.id > f.afterId &&
        (!f.label || n.labels.includes(f.label)) &&
        propertyMatches(n.props, f.property, f.value) &&
        validAt(n.props, f.validAt),
    )
    .map((n) => nodeRow(n));
  const page = mergeByKey(read, rows.length >= fetch, back, (r) => r.props!.id, byString, f.limit);
  return { items: page.items.map(graphNodeView), hasMore: page.hasMore, last: page.last };
}

/** Ends of put-back relationships: from the reconstruction, else the committed node now. */
async function endsOf(tx: Tx, projectId: string, known: KnownAt, ids: string[]): Promise<Map<string, KnownNode>> {
  const ends = new Map<string, KnownNode>();
  const missing: string[] = [];
  for (const id of new Set(ids)) {
    const n = known.nodes.get(id);
    if (n) ends.set(id, n);
    else missing.push(id);
  }
  if (missing.length > 0) {
    const rows = await tx.run<{ props: NodeProps | null; labels: string[] | null }>('graph/nodes_by_id', {
      ids: missing,
      project_id: projectId,
    });
    for (const { props, labels } of rows)
      if (isPresent(props)) ends.set(props.id, { id: props.id, props, labels: labels ?? [] });
  }
  return ends;
}

/** A node's name then: a string property, or null. */
const nameOf = (n: KnownNode): string | null => (typeof n.props.name === 'string' ? n.props.name : null);

function relationshipRow(r: KnownRelationship, ends: Map<string, KnownNode>): GraphEdgeRow | null {
  const a = ends.get(r.source);
  const b = ends.get(r.target);
  if (!a || !b) return null;
  return {
    id: r.id,
    type: r.type,
    source: r.source,
    target: r.target,
    source_label: SHOWN_LABEL(a.labels),
    source_name: nameOf(a),
    target_label: SHOWN_LABEL(b.labels),
    target_name: nameOf(b),
    properties: r.props,
    pending: false,
  };
}

/** A row read now, with the names and types (labels) its ends had then. */
function namedThen(row: GraphEdgeRow, known: KnownAt): GraphEdgeRow {
  const a = known.nodes.get(row.source);
  const b = known.nodes.get(row.target);
  return {
    ...row,
    ...(a ? { source_name: nameOf(a), source_label: SHOWN_LABEL(a.labels) } : {}),
    ...(b ? { target_name: nameOf(b), target_label: SHOWN_LABEL(b.labels) } : {}),
  };
}

export async function knownEdgesPage(
  tx: Tx,
  projectId: string,
  f: {
    nodeId?: string;
    type?: string;
    direction: 'out' | 'in' | 'both';
    validAt: string;
    knownAt: string;
    limit: number;
    after: EdgeKey;
  },
) {
  const known = await knownAt(tx, projectId, f.knownAt);
  const unknown = new Set(known.unknown);
  const fetch = f.limit + 1 + unknown.size;
  const params = {
    project_id: projectId,
    types: f.type ? [f.type] : null,
    include_pending: false,
    valid_at: f.validAt,
    after_source: f.after.source,
    after_id: f.after.id,
    limit: fetch,
  };
  const { rows, cut } =
    f.nodeId && unknown.has(f.nodeId)
      ? { rows: [], cut: null }
      : await readEdges(tx, params, f.nodeId ? { id: f.nodeId, direction: f.direction } : null);
  const read = rows
    .filter(isWhole)
    .filter((r) => ![r.id, r.source, r.target].some((x) => unknown.has(String(x))))
    .map((r) => namedThen(r, known));
  // A walk cut before the page filled read every edge before the cut; what is put back from there on belongs
  // to a later page, which starts at the cut.
  const candidates = known.relationships.filter(
    (r) =>
      byEdgeKey({ source: r.source, id: r.id }, f.after) > 0 &&
      (cut === null || byEdgeKey({ source: r.source, id: r.id }, cut) < 0) &&
      (!f.type || r.type === f.type) &&
      validAt(r.props, f.validAt) &&
      (!f.nodeId ||
        (r.source === f.nodeId && f.direction !== 'in') ||
        (r.target === f.nodeId && f.direction !== 'out')),
  );
  const ends = await endsOf(
    tx,
    projectId,
    known,
    candidates.flatMap((r) => [r.source, r.target]),
  );
  const back = candidates.map((r) => relationshipRow(r, ends)).filter((r) => r !== null);
  const keyOf = (r: GraphEdgeRow): EdgeKey => ({ source: r.source, id: String(r.id) });
  const page = mergeByKey(read, rows.length >= fetch, back, keyOf, byEdgeKey, f.limit);
  const items = page.items.map((r) => edgeView(r, true));
  return page.hasMore || cut === null
    ? { items, hasMore: page.hasMore, last: page.last }
    : { items, hasMore: true, last: cut };
}

/** What a walk follows: every relationship and node (the graph read), or a compile's hops. */
interface WalkScope {
  /** Relationship types followed; null: all. */
  types: string[] | null;
  /** Only entity to entity (a context compile's hops). */
  entitiesOnly: boolean;
}

const EVERYTHING: WalkScope = { types: null, entitiesOnly: false };

/** One step out from `ids`: the known relationships valid at the moment, and the known nodes at their other end. */
async function step(tx: Tx, projectId: string, known: KnownAt, ids: string[], at: string, scope = EVERYTHING) {
  const unknown = new Set(known.unknown);
  const found: { rel: KnownRelationship; other: KnownNode }[] = [];
  const rows =
    ids.length > 0
      ? await tx.run<AdjacentRow>('graph/adjacent', {
          ids,
          project_id: projectId,
          types: scope.types,
          entities_only: scope.entitiesOnly,
        })
      : [];
  for (const r of rows) {
    const other = r.source === r.from ? r.target : r.source;
    if (unknown.has(r.id) || unknown.has(other)) continue;
    const read = isPresent(r.node) ? r.node : null;
    const node = known.nodes.get(other) ?? (read && { id: other, props: read, labels: r.labels ?? [] });
    if (!node) continue; // deleted while it was read (isPresent)
    const rel = { id: r.id, type: r.type, source: r.source, target: r.target };
    found.push({ rel: { ...rel, props: r.props ?? {} }, other: node });
  }
  for (const gone of await goneAround(tx, projectId, known, ids, scope)) found.push(gone);
  return found.filter(({ rel, other }) => validAt(rel.props, at) && validAt(other.props, at));
}

/**
 * The relationships of `ids` known at the moment and gone since (deleted, or replaced by a change
 * such as a close), with the node at their other end as it was then (else as it is now).
 */
export async function goneAround(
  tx: Tx,
  projectId: string,
  known: KnownAt,
  ids: string[],
  scope: WalkScope = EVERYTHING,
): Promise<{ rel: KnownRelationship; other: KnownNode }[]> {
  const from = new Set(ids);
  const gone = known.relationships.filter(
    (r) => (from.has(r.source) || from.has(r.target)) && (scope.types === null || scope.types.includes(r.type)),
  );
  if (gone.length === 0) return [];
  const ends = await endsOf(
    tx,
    projectId,
    known,
    gone.map((r) => (from.has(r.source) ? r.target : r.source)),
  );
  const found: { rel: KnownRelationship; other: KnownNode }[] = [];
  for (const r of gone) {
    const other = ends.get(from.has(r.source) ? r.target : r.source);
    if (other && (!scope.entitiesOnly || other.labels.includes('Entity'))) found.push({ rel: r, other });
  }
  return found;
}

/**
 * A context compile's walk from its subject as the graph knew it (known_at): the entities within
 * `hops` over entity-to-entity relationships of the given types known then (present, or gone
 * since and put back as they were; none learnt since), valid at `validAt`, each with its distance
 * (the subject at 0), nearest first, then by id.
 */
export async function knownWalk(
  tx: Tx,
  projectId: string,
  known: KnownAt,
  subject: KnownNode,
  o: { hops: number; validAt: string; types: string[] | null },
): Promise<{ node: KnownNode; hops: number }[]> {
  const seen = new Map<string, { node: KnownNode; hops: number }>([[subject.id, { node: subject, hops: 0 }]]);
  let frontier = [subject.id];
  for (let distance = 1; distance <= o.hops && frontier.length > 0; distance++) {
    const next = new Map<string, KnownNode>();
    for (const { other } of await step(tx, projectId, known, frontier, o.validAt, {
      types: o.types,
      entitiesOnly: true,
    })) {
      if (!seen.has(other.id) && other.labels.includes('Entity')) next.set(other.id, other);
    }
    for (const n of next.values()) seen.set(n.id, { node: n, hops: distance });
    frontier = [...next.keys()];
  }
  return [...seen.values()].sort((a, b) => a.hops - b.hops || (a.node.id < b.node.id ? -1 : 1));
}

/** A node of the project as the graph knew it at the moment: put back, or committed now; null when unknown then. */
export async function knownNode(tx: Tx, projectId: string, known: KnownAt, id: string): Promise<KnownNode | null> {
  const then = known.nodes.get(id);
  if (then) return then;
  if (known.unknown.includes(id)) return null;
  // cypher/graph/node.cypher's row, as this read uses it (declared, not checked): a matched node's.
  const row = await tx.one<{ props: Row; labels: string[] }>('graph/node', {
    id,
    project_id: projectId,
    include_pending: false,
  });
  return row && isPresent(row.props) ? { id, props: row.props, labels: row.labels } : null;
}

export async function knownNeighbourhood(
  tx: Tx,
  projectId: string,
  id: string,
  o: { depth: 1 | 2; limit: number; validAt: string; knownAt: string; edgeLimit: number },
) {
  const known = await knownAt(tx, projectId, o.knownAt);
  const centre = await knownNode(tx, projectId, known, id);
  if (!centre) throw notFound('node', id);
  const seen = new Map<string, { node: KnownNode; distance: number }>();
  let frontier = [id];
  let truncated = false;
  for (let distance = 1; distance <= o.depth && frontier.length > 0; distance++) {
    const next = new Map<string, KnownNode>();
    for (const { other } of await step(tx, projectId, known, frontier, o.validAt)) {
      if (other.id !== id && !seen.has(other.id)) next.set(other.id, other);
    }
    const ordered = [...next.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
    if (ordered.length > o.limit) truncated = true;
    const kept = ordered.slice(0, o.limit);
    for (const n of kept) seen.set(n.id, { node: n, distance });
    frontier = truncated ? [] : kept.map((n) => n.id);
  }
  const nodes = [...seen.values()].slice(0, o.limit);
  const among = new Map<string, KnownNode>([[id, centre], ...nodes.map((n) => [n.node.id, n.node] as const)]);
  // Every relationship among them, as edges_among reads it, less the unknown, plus the ones put back.
  const unknown = new Set(known.unknown);
  const read = await tx.run<EdgeReadRow>('graph/edges_among', {
    ids: [...among.keys()],
    project_id: projectId,
    include_pending: false,
    valid_at: o.validAt,
    limit: o.edgeLimit + 1 + unknown.size,
  });
  const edges = [
    ...read
      .filter(isWhole)
      .filter((r) => r.id === null || !unknown.has(r.id))
      .map((r) => namedThen(r, known)),
    ...known.relationships
      .filter((r) => among.has(r.source) && among.has(r.target) && validAt(r.props, o.validAt))
      .map((r) => relationshipRow(r, among)!),
  ].sort((a, b) => {
    const ka = [a.type, a.source, a.target, a.id].map(String).join('\u0000');
    const kb = [b.type, b.source, b.target, b.id].map(String).join('\u0000');
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return {
    node: graphNodeView(nodeRow(centre)),
    nodes: nodes.map((n) => graphNodeView(nodeRow(n.node, n.distance))),
    edges: edges.slice(0, o.edgeLimit).map((e) => edgeView(e, true)),
    truncated: truncated || edges.length > o.edgeLimit,
  };
}
