// Whether governed writes queue their memories, chunks and entities for a vector: on unless
// EMBEDDINGS=off (set once at start by the service and the worker process). With it off, nothing is
// queued; turning embeddings on later, `gks reembed` gives the nodes written meanwhile their vectors.
let enabled = true;

export function setEmbeddingQueue(on: boolean): void {
  enabled = on;
}

export function embeddingQueueEnabled(): boolean {
  return enabled;
}
