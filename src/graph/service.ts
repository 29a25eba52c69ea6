// Graph reads of one project: pages of nodes and edges, one node with its neighbourhood, counts.
// Committed data only unless includePending; labels and types come validated from the routes and
// reach Cypher as parameters of dynamic labels ($all, $any).
import type { Graph } from '../db/graph.js';
import { readPage } from '../http/cursor.js';
import { notFound } from '../errors/catalogue.js';
import {
  edgeView,
  graphNodeView,
  isPresent,
  isWhole,
  type EdgeKey,
  type EdgeReadRow,
  type GraphEdgeView,
  type GraphNodeRow,
  type GraphNodeView,
} from './views.js';
import { readEdges } from './edgeWalk.js';
import { knownEdgesPage, knownNeighbourhood, knownNodesPage } from './known.js';

export interface Page<T, K = string> {
  items: T[];
  hasMore: boolean;
  /** Where the next page starts after: the sort key of the last item, or where a cut walk stopped. */
  last: K | null;
}

export interface NodeFilter {
  label?: string;
  property?: string;
  value?: string;
  includePending: boolean;
  /** Valid time (docs/facts.md); null: now (at knownAt when that is given). */
  asOf: string | null;
  /** Transaction time (docs/facts.md): only what the graph knew then, committed only; null: now. */
  knownAt?: string | null;
  limit: number;
  afterId: string;
}

export async function listNodes(graph: Graph, projectId: string, f: NodeFilter): Promise<Page<GraphNodeView>> {
  if (f.knownAt) {
    const knownAt = f.knownAt;
    return graph.read((tx) => knownNodesPage(tx, projectId, { ...f, validAt: f.asOf ?? knownAt, knownAt }));
  }
  const read = () =>
    graph.read((tx) =>
      tx.run<GraphNodeRow>('graph/nodes', {
        project_id: projectId,
        labels: f.label ? ['Knowledge', f.label] : ['Knowledge'],
        property: f.property ?? null,
        value: f.value ?? null,
        include_pending: f.includePending,
        valid_at: f.asOf ?? new Date().toISOString(),
        after_id: f.afterId,
        limit: f.limit + 1,
      }),
    );
  return nodesPage(await readPage(read, f.limit, (r) => isPresent(r.props)), f.limit);
}

/**
 * A page of graph/nodes rows (read limit + 1): whether more follow is told by the rows read, and a node deleted
 * while they were read is left out, the row read after the page taking its place (as keysetPage,
 * src/http/cursor.ts), so the next page starts after the last node shown and skips nothing.
 */
export function nodesPage(rows: GraphNodeRow[], limit: number): Page<GraphNodeView> {
  const items = rows
    .filter((r) => isPresent(r.props))
    .slice(0, limit)
    .map(graphNodeView);
  return { items, hasMore: rows.length > limit, last: items[items.length - 1]?.id ?? null };
}

export interface EdgeFilter {
  nodeId?: string;
  type?: string;
  direction: 'out' | 'in' | 'both';
  includePending: boolean;
  /** Valid time (docs/facts.md); null: now (at knownAt when that is given). */
  asOf: string | null;
  /** Transaction time (docs/facts.md): only what the graph knew then, committed only; null: now. */
  knownAt?: string | null;
  limit: number;
  after: EdgeKey;
}

export async function listEdges(graph: Graph, projectId: string, f: EdgeFilter): Promise<Page<GraphEdgeView, EdgeKey>> {
  if (f.knownAt) {
    const knownAt = f.knownAt;
    return graph.read((tx) => knownEdgesPage(tx, projectId, { ...f, validAt: f.asOf ?? knownAt, knownAt }));
  }
  const params = {
    project_id: projectId,
    types: f.type ? [f.type] : null,
    include_pending: f.includePending,
    valid_at: f.asOf ?? new Date().toISOString(),
    after_source: f.after.source,
    after_id: f.after.id,
    limit: f.limit + 1,
  };
  const node = f.nodeId ? { id: f.nodeId, direction: f.direction } : null;
  const { rows, cut } = await graph.read((tx) => readEdges(tx, params, node));
  const page = rows.slice(0, f.limit);
  // Reads are read-committed: a relationship deleted while the page was read comes back with its
  // type and ends null. It is gone, so it is left out; the cursor still moves past it, to the last row
  // whose sort key (source, id) was read.
  const items = page.filter(isWhole).map((r) => edgeView(r, true));
  const keyed = page.filter((r) => typeof r.source === 'string' && typeof r.id === 'string');
  const last = keyed[keyed.length - 1];
  // A page its walk cut before it filled has read every edge before the cut: the next one starts there.
  return {
    items,
    hasMore: rows.length > f.limit || cut !== null,
    last: cut ?? (last ? { source: String(last.source), id: String(last.id) } : null),
  };
}

/** Most relationships returned with a neighbourhood. */
export const NEIGHBOURHOOD_EDGE_LIMIT = 5000;

export interface Neighbourhood {
  node: GraphNodeView;
  nodes: GraphNodeView[];
  edges: GraphEdgeView[];
  truncated: boolean;
}

export async function readNeighbourhood(
  graph: Graph,
  projectId: string,
  id: string,
  options: { depth: 1 | 2; limit: number; includePending: boolean; asOf?: string | null; knownAt?: string | null },
): Promise<Neighbourhood> {
  if (options.knownAt) {
    const knownAt = options.knownAt;
    return graph.read((tx) =>
      knownNeighbourhood(tx, projectId, id, {
        depth: options.depth,
        limit: options.limit,
        validAt: options.asOf ?? knownAt,
        knownAt,
        edgeLimit: NEIGHBOURHOOD_EDGE_LIMIT,
      }),
    );
  }
  const base = {
    project_id: projectId,
    include_pending: options.includePending,
    valid_at: options.asOf ?? new Date().toISOString(),
  };
  return graph.read(async (tx) => {
    const centre = await tx.one<GraphNodeRow>('graph/node', { ...base, id });
    if (!centre || !isPresent(centre.props)) throw notFound('node', id);
    const around = await tx.run<GraphNodeRow>('graph/neighbourhood', {
      ...base,
      id,
      depth: options.depth,
      limit: options.limit,
    });
    const nodes = around
      .slice(0, options.limit)
      .filter((r) => isPresent(r.props))
      .map(graphNodeView);
    const ids = [id, ...nodes.map((n) => n.id)];
    const read = await tx.run<EdgeReadRow>('graph/edges_among', {
      ...base,
      ids,
      limit: NEIGHBOURHOOD_EDGE_LIMIT + 1,
    });
    const edges = read.filter(isWhole);
    return {
      node: graphNodeView(centre),
      nodes,
      edges: edges.slice(0, NEIGHBOURHOOD_EDGE_LIMIT).map((e) => edgeView(e, true)),
      truncated: around.length > options.limit || edges.length > NEIGHBOURHOOD_EDGE_LIMIT,
    };
  });
}

/** What graph/counts returns: node and relationship counts, per label and per type (declared, not checked). */
interface Counts {
  node_count: number;
  relationship_count: number;
  labels: { label: string; count: number }[];
  relationship_types: { type: string; count: number }[];
}

export async function countGraph(graph: Graph, projectId: string, includePending: boolean): Promise<Counts> {
  const row = await graph.read((tx) =>
    tx.one<Counts>('graph/counts', { project_id: projectId, include_pending: includePending }),
  );
  return {
    node_count: row?.node_count ?? 0,
    relationship_count: row?.relationship_count ?? 0,
    labels: row?.labels ?? [],
    relationship_types: row?.relationship_types ?? [],
  };
}
