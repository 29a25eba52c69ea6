// Whether governed writes queue their memories, chunks and entities for a vector: on unless
// EMBEDDINGS=off (set once at start by the service and the worker process). With it off, nothing is
// queued; turning embeddings on later, `gks reembed` gives the nodes written meanwhile their vectors.
import type { Tx } from '../db/graph.js';

let enabled = true;

export function setEmbeddingQueue(on: boolean): void {
  enabled = on;
}

export function embeddingQueueEnabled(): boolean {
  return enabled;
}

/**
 * Queues, in the caller's transaction, the memories, chunks and entities a reverted delta brings
 * back, so the worker gives them vectors again (nothing when the queue is off).
 */
export async function queueRevertedForEmbedding(tx: Tx, params: Record<string, unknown>): Promise<void> {
  if (enabled) await tx.run('embeddings/queue_delta', params);
}
