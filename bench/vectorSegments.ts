// How a vector index's Lucene segments weigh on a question (docs/operations.md, "Neo4j settings"): fills one
// project with --memories memories whose vectors are written --batch per transaction, as the embedding worker
// writes them (16), waits until the engine is idle (its merges done), then prints, one JSON line each: the
// write time, the index's segment count on disk, and p50/p95 of the index call alone and of memories/vector
// (k = 120, what a search of limit 10 asks) over 40 real questions x 3 counted rounds. Each memory's vector is
// a perturbed copy of a real one (bench/vectors.ts). The merge factor is the engine's, so compare values run by
// run: GKS_NEO4J_VECTOR_MERGE_FACTOR=50 (Neo4j's default) against the service's 4.
// Run: npx tsx bench/vectorSegments.ts [--memories 100000] [--batch 16]
//   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 29787). It asserts nothing.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { awaitEngineIdle, benchEmbeddings, benchTenant, percentile, startBench, timed, words } from './support.js';
import { createWithVectors, fillPool, gaussian, perturbed } from './vectors.js';

const { values } = parseArgs({
  options: { memories: { type: 'string', default: '100000' }, batch: { type: 'string', default: '16' } },
});
const TOTAL = Number(values.memories);
const BATCH = Number(values.batch);
const K = 120;
const neo4jPort = Number(process.env.GKS_BENCH_NEO4J_PORT ?? 29787);
const figure = (o: Record<string, unknown>): void => console.log(JSON.stringify(o));

const env = await startBench('vector-segments', { neo4j: neo4jPort, temporal: neo4jPort - 454 });
const { service } = env;
const graph = service.deps.graph;
const { embedder, worker } = benchEmbeddings(service);
await worker?.stop(); // the bench writes every vector itself
try {
  const tenant = await benchTenant(service);
  const model = embedder.model.id;
  const pool = await fillPool(embedder, 256);
  const rand = gaussian(7);
  const began = performance.now();
  for (let start = 0; start < TOTAL; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, TOTAL - start) }, (_, k) => ({
      id: crypto.randomUUID(),
      content: words(start + k, 10),
      kind: 'fact',
      vector: perturbed(pool[(start + k) % pool.length]!, rand),
    }));
    await createWithVectors(graph, tenant.projectId, model, rows);
  }
  const written = (performance.now() - began) / 1000;
  const settled = await awaitEngineIdle(env);
  // A segment is the files of one name (_0.cfs, _0.si, ...) in the vector index's folder.
  const segments = new Set<string>();
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (full.includes('vector-2')) {
        const name = /^(_[a-z0-9]+)[._]/.exec(e.name)?.[1];
        if (name) segments.add(`${dir}/${name}`);
      }
    }
  };
  walk(path.join(env.dataDir, 'neo4j'));
  figure({
    figure: 'vectors_written',
    memories: TOTAL,
    batch: BATCH,
    seconds: Number(written.toFixed(1)),
    settle_seconds: settled,
    segments: segments.size,
    merge_factor: service.deps.config.neo4j.local.vectorMergeFactor,
  });

  const questions: number[][] = [];
  for (let i = 0; i < 40; i += 1) questions.push((await embedder.embedQueries([words(i + 9e6, 2)]))[0]!);
  const measure = async (name: string, run: (vector: number[]) => Promise<unknown>): Promise<void> => {
    const samples: number[] = [];
    for (let round = 0; round < 4; round += 1)
      for (const vector of questions) {
        const [ms] = await timed(() => run(vector));
        if (round > 0) samples.push(ms); // the first round warms the plan and the page cache
      }
    const p = (q: number) => Number(percentile(samples, q).toFixed(1));
    figure({ figure: `${name}_ms`, k: K, p50: p(50), p95: p(95) });
  };
  await measure('index_call', (vector) =>
    graph.read((tx) =>
      tx.runText(
        `CALL db.index.vector.queryNodes('memory_embedding', $k, $vector) YIELD node RETURN count(node) AS n`,
        { k: K, vector },
      ),
    ),
  );
  await measure('memories_vector', (vector) =>
    graph.read((tx) =>
      tx.one('memories/vector', {
        project_id: tenant.projectId,
        now: new Date().toISOString(),
        valid_at: new Date().toISOString(),
        kinds: null,
        exact_up_to: 500,
        vector,
        model,
        k: K,
        min_similarity: 0.75,
      }),
    ),
  );
} finally {
  await env.stop();
}
