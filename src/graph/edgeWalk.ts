// How a page of graph/edges is read: a walk of at most EDGE_WALK nodes of the project, in id order
// (cypher/graph/edges.cypher). A page that fills is read once. One that comes back short is read again by
// graph/edges_walk, which bounds the walk by key and says where the next one starts (cut), so a project of
// many nodes and few relationships answers a short page rather than read every node it has for each page.
import type { Tx } from '../db/graph.js';
import type { EdgeKey, EdgeReadRow } from './views.js';

/** Most nodes one page of graph/edges walks. */
export const EDGE_WALK = 5000;

export interface EdgeRead {
  /** The page's rows, at most params.limit (the page's limit plus what the caller reads beyond it). */
  rows: EdgeReadRow[];
  /** Where the next page starts when the walk stopped, short of the limit, before the project's last node. */
  cut: EdgeKey | null;
}

/** The rows of an edges page: one node's (graph/node_edges, never cut), else a walk of the project's nodes. */
export async function readEdges(
  tx: Tx,
  params: Record<string, unknown> & { limit: number; after_source: string; after_id: string },
  node: { id: string; direction: 'out' | 'in' | 'both' } | null,
): Promise<EdgeRead> {
  if (node === null) return readEdgePage(tx, params);
  const rows = await tx.run<EdgeReadRow>('graph/node_edges', {
    ...params,
    node_id: node.id,
    direction: node.direction,
  });
  return { rows, cut: null };
}

/**
 * The rows of a page of graph/edges (params as the statement names them, without walk). Of a cut walk, the next
 * page starts at the first node not walked, before any of its relationships (''). A page that starts so, at a
 * node but before any relationship id, follows a cut walk: its own walk is likely short too, so it is read by
 * graph/edges_walk alone (a full page's cursor names its last relationship; the first page starts before every
 * node).
 */
export async function readEdgePage(
  tx: Tx,
  params: Record<string, unknown> & { limit: number; after_source: string; after_id: string },
): Promise<EdgeRead> {
  const afterCut = params.after_source !== '' && params.after_id === '';
  if (!afterCut) {
    const rows = await tx.run<EdgeReadRow>('graph/edges', { ...params, walk: EDGE_WALK });
    if (rows.length >= params.limit) return { rows, cut: null };
  }
  const walked = await tx.run<EdgeReadRow>('graph/edges_walk', { ...params, walk: EDGE_WALK });
  const cutAt = walked[0]?.cut_at;
  // A walk that found nothing answers one row with only cut_at.
  const found = walked.filter((r) => r.source !== null);
  const cut = typeof cutAt === 'string' && found.length < params.limit ? { source: cutAt, id: '' } : null;
  return { rows: found, cut };
}
