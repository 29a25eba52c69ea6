// How many committed memories, chunks and entities carry a vector of the current model, of another, or none
// (/v1/status). Counting reads every such node of every project (embeddings/model_counts: about 0.6 s of
// Neo4j work at 330,000 memories, so about 2 s at a million), so the status route counts at most once per
// window and says when it counted (`counted_at`); concurrent calls share one count. `gks reembed` and the
// tests count afresh (countVectors).
import type { Graph } from '../db/graph.js';

/** How long /v1/status answers with the counts it last made (ms). */
export const VECTOR_COUNTS_WINDOW_MS = 30_000;

export interface VectorCountsView {
  current_model: number;
  other_model: number;
  without_vector: number;
  /** When the nodes were counted. */
  counted_at: string;
}

/** A row of embeddings/model_counts: one kind of node, counted by the model of its vector (counts, never null). */
interface ModelCountRow {
  kind: string;
  current: number;
  other: number;
  none: number;
}

/** Counts the nodes by the model of their vector now. */
export async function countVectors(graph: Graph, model: string): Promise<VectorCountsView> {
  const counts = await graph.read((tx) => tx.run<ModelCountRow>('embeddings/model_counts', { model }));
  const sum = (key: 'current' | 'other' | 'none') => counts.reduce((n, r) => n + r[key], 0);
  return {
    current_model: sum('current'),
    other_model: sum('other'),
    without_vector: sum('none'),
    counted_at: new Date().toISOString(),
  };
}

/** The counts of one process's status route: made again once the window has passed, or the model changed. */
export class VectorCounts {
  private last: { model: string; at: number; view: VectorCountsView } | null = null;
  private pending: { model: string; view: Promise<VectorCountsView> } | null = null;

  constructor(private readonly windowMs = VECTOR_COUNTS_WINDOW_MS) {}

  async read(graph: Graph, model: string): Promise<VectorCountsView> {
    const last = this.last;
    if (last && last.model === model && Date.now() - last.at < this.windowMs) return last.view;
    if (this.pending?.model === model) return this.pending.view;
    const at = Date.now();
    const view = countVectors(graph, model);
    const pending = { model, view };
    this.pending = pending;
    try {
      const counted = await view;
      this.last = { model, at, view: counted };
      return counted;
    } finally {
      // A failed count is not kept: the next call counts again.
      if (this.pending === pending) this.pending = null;
    }
  }
}
