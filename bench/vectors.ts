// Vectors for benchmarks at a size the engine cannot embed in a run (100k texts take this machine hours): a
// pool of texts embedded for real by the engine, and each node given one of the pool's vectors plus its own
// Gaussian noise (|noise| about 0.5, renormalised), so no two vectors are equal and the HNSW index holds as many
// distinct points as nodes. The latency of the vector index does not depend on whether a vector came from the
// model or from this perturbation; how many neighbours pass a similarity floor does depend on their spread,
// which the pool's real vectors give. Used by bench/recallScale.ts, bench/scale.ts (--vectors), bench/nearExact.ts,
// bench/vectorSegments.ts and bench/hybridTimeline.ts.
import type { Graph } from '../src/db/graph.js';
import type { Embedder } from '../src/embeddings/model.js';
import { tenantToken } from '../src/db/tenant.js';
import { contextText, memoryText, textHash } from '../src/embeddings/text.js';
import { memoryName } from '../src/memories/views.js';
import { MEMORY_SHAPE_ID } from '../src/shapes/types.js';
import { fillText } from './support.js';

/** A memory to create with its vector (createWithVectors); the optional fields are those of a memory of an episode. */
export interface VectorRow {
  id: string;
  content: string;
  kind: string;
  vector: number[];
  /** When it was said (ISO 8601; default: when it is written, as the API's default). */
  observed_at?: string;
  /** The key of its episode (docs/episodes.md); the episode node and its links are the caller's. */
  episode?: string;
  /** Its context vector (docs/recall.md, "Context"), and the content of the memory before it in its episode. */
  context?: number[];
  previous?: string | null;
}

/**
 * Creates memories of a project that already carry a vector of `model`, as the embedding worker leaves them (the
 * API's labels and properties, its name derived from the content, the vector set by db.create.setNodeVectorProperty
 * with the hash of the text it stands for), in one transaction: how the benches seed a graph the engine could not
 * embed in a run (bench/recallScale.ts, bench/vectorSegments.ts). A row with a context vector gets it as the worker
 * stores one (cypher/embeddings/store_vectors.cypher: context_embedding and context_text_hash). With `mentions` the
 * memories join the mention worker's queue as the applying write puts them there (mentions_queued_at).
 */
export async function createWithVectors(
  graph: Graph,
  projectId: string,
  model: string,
  rows: VectorRow[],
  options: { mentions?: boolean } = {},
): Promise<void> {
  const params = rows.map((r) => {
    const name = memoryName(r.content);
    return {
      id: r.id,
      content: r.content,
      name,
      kind: r.kind,
      vector: r.vector,
      observed_at: r.observed_at ?? null,
      episode: r.episode ?? null,
      text_hash: textHash(model, memoryText({ name, content: r.content })),
      context: r.context ?? null,
      context_hash: r.context ? textHash(model, contextText(r.previous ?? '', { content: r.content })) : null,
    };
  });
  await graph.write((tx) =>
    tx.runText(
      `UNWIND $rows AS r
       CREATE (m:Knowledge:Memory {id: r.id, project_id: $p, tenant: $tenant, content: r.content, name: r.name,
         kind: r.kind, scope: 'project', memory_schema: 'gks.memory/v1', shape_id: $shape,
         observed_at: coalesce(datetime(r.observed_at), datetime()), episode: r.episode,
         created_at: datetime(), updated_at: datetime(),
         embedding_model: $model, embedding_text_hash: r.text_hash, context_text_hash: r.context_hash,
         mentions_queued_at: CASE WHEN $mentions THEN datetime() END})
       SET m.date_observed = date(m.observed_at)
       WITH m, r CALL db.create.setNodeVectorProperty(m, 'embedding', r.vector)
       WITH m, r WHERE r.context IS NOT NULL
       CALL db.create.setNodeVectorProperty(m, 'context_embedding', r.context)`,
      {
        rows: params,
        p: projectId,
        tenant: tenantToken(projectId),
        shape: MEMORY_SHAPE_ID,
        model,
        mentions: options.mentions ?? false,
      },
    ),
  );
}

/** A deterministic Gaussian (Box-Muller over a seeded LCG), so every run seeds the same vectors. */
export function gaussian(seed: number): () => number {
  let x = seed >>> 0 || 1;
  const next = (): number => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return (x + 1) / 4294967297;
  };
  return () => Math.sqrt(-2 * Math.log(next())) * Math.cos(2 * Math.PI * next());
}

/** The real passage vectors of the fill's first `size` texts (bench/support.ts fillText), 32 per request. */
export async function fillPool(embedder: Embedder, size: number): Promise<number[][]> {
  const pool: number[][] = [];
  for (let i = 1; i <= size; i += 32)
    pool.push(...(await embedder.embedPassages(Array.from({ length: 32 }, (_, k) => fillText(i + k)))));
  return pool;
}

/** The ids of a project's memories, for writeVectors. */
export async function memoryIds(graph: Graph, projectId: string): Promise<string[]> {
  const rows = await graph.read((tx) =>
    tx.runText('MATCH (m:Memory {project_id: $p}) RETURN m.id AS id', { p: projectId }),
  );
  return rows.map((r) => String(r.id));
}

/**
 * `base` plus noise of norm about `noise` (0.5 unless said), renormalised to a unit vector. Its cosine to any
 * question is about the base's divided by sqrt(1 + noise²): 0.89 times it at 0.5, 0.98 times at 0.2.
 */
export function perturbed(base: number[], rand: () => number, noise = 0.5): number[] {
  const sigma = noise / Math.sqrt(base.length);
  const v = base.map((x) => x + sigma * rand());
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / norm);
}

/**
 * Gives each memory of `ids` the vector of the pool's text its position picks, perturbed, as the embedding
 * worker stores one (cypher/embeddings/store_vectors.cypher: the model, off the queue), `batch` per
 * transaction; `progress` is told how many are written. Resolves the seconds it took, indexes awaited.
 */
export async function writeVectors(
  graph: Graph,
  ids: string[],
  pool: number[][],
  model: string,
  options: { seed: number; batch: number; progress?: (written: number) => void },
): Promise<number> {
  const rand = gaussian(options.seed);
  const began = performance.now();
  for (let start = 0; start < ids.length; start += options.batch) {
    const rows = ids
      .slice(start, start + options.batch)
      .map((id, k) => ({ id, vector: perturbed(pool[(start + k) % pool.length]!, rand) }));
    await graph.write((tx) =>
      tx.runText(
        `UNWIND $rows AS r
         MATCH (m:Knowledge {id: r.id})
         CALL db.create.setNodeVectorProperty(m, 'embedding', r.vector)
         SET m.embedding_model = $model, m.embedding_text_hash = 'bench', m.embedding_queued_at = null`,
        { rows, model },
      ),
    );
    options.progress?.(start + rows.length);
  }
  await graph.read((tx) => tx.runText('CALL db.awaitIndexes(7200)'));
  return (performance.now() - began) / 1000;
}
