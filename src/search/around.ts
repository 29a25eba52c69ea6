// What /v1/search's word statements read around their hits (cypher/search/around_found.cypher): each hit's
// relationships valid at the search's time (a memory hit comes whole with them: memories/search's $around). The
// fused answer's results are most often among those hits, so search/answered then reads only the edges not in
// hand: of the results the meaning side alone found, and of those with more than EDGES_PER_NODE relationships
// (whose share is the results' own edges first). When nothing is missing, no statement follows the fusion
// (issue 27).
//
// The answer is the one search/answered gives for every result: a result with at most EDGES_PER_NODE
// relationships shows them all whatever their order, and the edges are the union over the results, each once, in
// search/answered's order.
import { isWhole, type EdgeReadRow, type GraphEdgeRow } from '../graph/views.js';

/** An edge as around_found and search/answered read it, with its relationship's element id (`key`). */
export type KeyedEdge = EdgeReadRow & { key: string };

/** around_found's entry for one hit: its relationships, at most perNode + 1 (declared, not checked). */
export interface AroundRow {
  id: string;
  edges: KeyedEdge[] | null;
}

/** Strings in code-unit order, null last (Cypher's ORDER BY for the ids and types it compares). */
function compare(a: string | null | undefined, b: string | null | undefined): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  return a < b ? -1 : 1;
}

/** search/answered's order of edges: type, source id, target id, the relationship's id. */
function byAnsweredOrder(x: GraphEdgeRow, y: GraphEdgeRow): number {
  return compare(x.type, y.type) || compare(x.source, y.source) || compare(x.target, y.target) || compare(x.id, y.id);
}

export class Around {
  private readonly edges = new Map<string, KeyedEdge[]>();

  /** `perNode`: the most relationships a result shows (EDGES_PER_NODE). */
  constructor(private readonly perNode: number) {}

  /** A statement's entries; a hit over perNode is not held (search/answered reads it). */
  add(rows: AroundRow[] | null | undefined): void {
    for (const row of rows ?? [])
      if (row.edges !== null && row.edges.length <= this.perNode) this.edges.set(row.id, row.edges);
  }

  /** The results whose edges are not in hand. */
  missing(results: string[]): string[] {
    return results.filter((id) => !this.edges.has(id));
  }

  /**
   * The results' edges: those in hand for the results that have them, and those read since for the others
   * (`read`, search/answered's), each once (by element id), each still there, in search/answered's order.
   */
  edgesOf(results: string[], read: KeyedEdge[]): GraphEdgeRow[] {
    const once = new Map<string, KeyedEdge>();
    for (const edge of [...results.flatMap((id) => this.edges.get(id) ?? []), ...read]) once.set(edge.key, edge);
    return [...once.values()].filter(isWhole).sort(byAnsweredOrder);
  }
}
