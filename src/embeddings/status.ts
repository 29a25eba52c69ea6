// What /v1/status, /readyz and /metrics say of recall by meaning: where vectors come from, whether
// the engine answers, the backlog (count and oldest age), how many nodes carry vectors of the
// current model, and whether a vector index serves another model (a model change: `gks reembed`).
import type { EmbeddingsConfig } from '../config/config.js';
import type { Graph } from '../db/graph.js';
import type { HealthSnapshot } from '../ops/health.js';
import type { OpenAIEmbedder } from './client.js';
import type { IndexModel } from './schema.js';
import type { EmbeddingWorker } from './worker.js';
import { countVectors, type VectorCountsView } from './vectorCounts.js';

/** The embedding parts of a running service (deps.runtime.embeddings). */
export interface EmbeddingsRuntime {
  config: EmbeddingsConfig;
  embedder: OpenAIEmbedder | null;
  worker: EmbeddingWorker | null;
  /** The model each vector index served at start (status reads them live). */
  indexes: IndexModel[];
}

/** A queue in the graph: the embedding worker's (embeddings/backlog) or the mention worker's (terms_backlog). */
export interface Backlog {
  count: number;
  oldest_queued_at: string | null;
  oldest_age_seconds: number | null;
}

export interface EmbeddingsStatus {
  mode: EmbeddingsConfig['mode'];
  status: 'up' | 'down' | 'off';
  since: string | null;
  last_error: string | null;
  outages: number;
  model: { id: string; dimensions: number } | null;
  model_changed: boolean;
  indexes: IndexModel[];
  vectors: VectorCountsView;
  backlog: Backlog;
}

export async function readBacklog(graph: Graph, statement = 'embeddings/backlog'): Promise<Backlog> {
  const row = await graph.read((tx) => tx.one(statement));
  const oldest = typeof row?.oldest === 'string' ? row.oldest : null;
  return {
    count: Number(row?.count ?? 0),
    oldest_queued_at: oldest,
    oldest_age_seconds: oldest === null ? null : Math.max(0, Math.round((Date.now() - Date.parse(oldest)) / 1000)),
  };
}

export function engineHealth(runtime: EmbeddingsRuntime | undefined): HealthSnapshot | null {
  return runtime?.embedder ? runtime.embedder.health.snapshot() : null;
}

/**
 * The embeddings part of /v1/status. `count` counts the nodes by the model of their vector: afresh unless the
 * caller passes its own (the route's VectorCounts, which counts at most once per window).
 */
export async function embeddingsStatus(
  graph: Graph,
  runtime: EmbeddingsRuntime,
  count: (graph: Graph, model: string) => Promise<VectorCountsView> = countVectors,
): Promise<EmbeddingsStatus> {
  const model = runtime.embedder?.model ?? null;
  const health = engineHealth(runtime);
  const vectors = await count(graph, model?.id ?? '');
  // Read live: a completed `gks reembed` changes them while the service runs.
  const indexes = await graph.read((tx) =>
    tx.run<{ name: string; model: string; dimensions: number }>('embeddings/index_records'),
  );
  return {
    mode: runtime.config.mode,
    status: health ? health.status : 'off',
    since: health?.since ?? null,
    last_error: health?.last_error ?? null,
    outages: health?.outages ?? 0,
    model,
    model_changed: model !== null && indexes.some((i) => i.model !== model.id),
    indexes,
    vectors,
    backlog: await readBacklog(graph),
  };
}

/** How many memories, chunks and entities carry no vector of `model` (another model's, or none). */
export async function nodesWithoutModel(graph: Graph, model: string): Promise<number> {
  const counts = await countVectors(graph, model);
  return counts.other_model + counts.without_vector;
}
