// Issue 22 at scale: memory search and POST /v1/search latency at 100k memories WITH vectors, each
// mode (lexical, semantic, hybrid) measured in the same run on the same graph, so machine load falls
// on all alike; and the backlog drain rate measured on a sample.
//
// Data: the team's labelled recall corpus (test/recall/corpus.ts, 311 memories of one company) is
// embedded for real by the engine; the 100k memories cycle through its texts (each with its own
// serial number), and each carries its text's real vector plus independent Gaussian noise
// (|noise| about 0.5, renormalised: bench/vectors.ts), so no two vectors are equal and the HNSW index
// holds 100k distinct points. Embedding 100k texts on this machine would take hours (see the drain figure);
// the latency of the vector index does not depend on whether a vector came from the model or from
// this perturbation. Questions are the corpus's questions, embedded by the engine per request as
// in production (that call is part of every hybrid and semantic figure: the cache of question vectors
// is cleared before each timed call, so every question is new to it; one more line gives a question
// asked before). A second project holds 20% more memories, since the vector index spans every
// project. Last, the vector statement alone through the driver, by the number of neighbours asked (k).
// Run: npx tsx bench/recallScale.ts [--memories 100000] [--drain 500]
//   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 22687; the engine on +5). It asserts nothing.
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import type { Graph } from '../src/db/graph.js';
import type { QuestionCache } from '../src/embeddings/questionCache.js';
import { EXACT_UP_TO, similarityFloor } from '../src/search/meaning.js';
import { readBacklog } from '../src/embeddings/status.js';
import { MEMORIES, QUESTIONS } from '../test/recall/corpus.js';
import { awaitEngineIdle, benchEmbeddings, benchTenant, fmt, percentile, startBench, timed } from './support.js';
import { createWithVectors, gaussian, perturbed } from './vectors.js';

const { values } = parseArgs({
  options: { memories: { type: 'string', default: '100000' }, drain: { type: 'string', default: '500' } },
});
const TOTAL = Number(values.memories);
const DRAIN = Number(values.drain);
const BATCH = 5_000;
const ROUNDS = 3;
const neo4jPort = Number(process.env.GKS_BENCH_NEO4J_PORT ?? 22687);

async function seed(
  graph: Graph,
  projectId: string,
  count: number,
  pool: { content: string; kind: string; vector: number[] }[],
  model: string,
  seedNo: number,
): Promise<void> {
  const rand = gaussian(seedNo);
  for (let start = 0; start < count; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => {
      const i = start + k;
      const base = pool[i % pool.length]!;
      const content = `${base.content} (record ${seedNo}-${i})`;
      return { id: crypto.randomUUID(), content, kind: base.kind, vector: perturbed(base.vector, rand) };
    });
    await createWithVectors(graph, projectId, model, rows);
    process.stderr.write(`\r  project ${seedNo}: ${start + rows.length} memories`);
  }
  process.stderr.write('\n');
}

const env = await startBench('recall-scale', { neo4j: neo4jPort, temporal: neo4jPort - 454 });
try {
  const { service } = env;
  const graph = service.deps.graph;
  const runtime = benchEmbeddings(service);
  const model = runtime.embedder.model.id;
  const tenant = await benchTenant(service);
  const other = await benchTenant(service);

  console.log(`embedding the ${MEMORIES.length} corpus memories with ${model}…`);
  const vectors: number[][] = [];
  for (let i = 0; i < MEMORIES.length; i += 32)
    vectors.push(...(await runtime.embedder.embedPassages(MEMORIES.slice(i, i + 32).map((m) => m.content))));
  const pool = MEMORIES.map((m, i) => ({ content: m.content, kind: m.kind, vector: vectors[i]! }));

  console.log(`seeding ${TOTAL} memories with vectors (+${Math.round(TOTAL / 5)} in a second project)…`);
  const [seedMs] = await timed(async () => {
    await seed(graph, tenant.projectId, TOTAL, pool, model, 1);
    await seed(graph, other.projectId, Math.round(TOTAL / 5), pool, model, 2);
    await graph.read((tx) => tx.runText('CALL db.awaitIndexes(1200)'));
  });
  // The vector index merges its segments after the bulk write: the figures are taken once that is done.
  const settled = await awaitEngineIdle(env);
  console.log(
    `seeded and indexed in ${(seedMs / 1000).toFixed(1)} s; the engine idle ${settled ?? '(not watched)'} s later`,
  );

  const post = async (path: string, body: unknown): Promise<number> => {
    const r = await fetch(`${service.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await r.json()) as { memories?: unknown[]; count?: number };
    if (r.status >= 300) throw new Error(`${path} answered ${r.status}: ${JSON.stringify(json).slice(0, 300)}`);
    return json.memories?.length ?? json.count ?? 0;
  };
  const modes = ['lexical', 'semantic', 'hybrid'] as const;
  const calls = {
    'POST /v1/memories/search': (query: string, mode: string) =>
      post('/v1/memories/search', { query, mode, limit: 10 }),
    'POST /v1/search (memory plane)': (query: string, mode: string) =>
      post('/v1/search', { query, mode, planes: ['memory'], limit: 10 }),
  };
  const questions = QUESTIONS.map((q) => q.question);
  const cache = (runtime.embedder as { cache?: QuestionCache | null }).cache ?? null;
  const forget = (): void => cache?.clear();
  // Warm-up: every question once per mode (caches, JIT, the engine's first calls).
  for (const call of Object.values(calls)) for (const mode of modes) for (const q of questions) await call(q, mode);
  const samples = new Map<string, number[]>();
  // Rounds interleave the modes question by question, so load at any moment falls on all of them.
  for (let round = 0; round < ROUNDS; round += 1)
    for (const q of questions)
      for (const [name, call] of Object.entries(calls))
        for (const mode of modes) {
          forget();
          const [ms] = await timed(() => call(q, mode));
          const key = `${name} ${mode}`;
          samples.set(key, [...(samples.get(key) ?? []), ms]);
        }
  // A question asked before: its vector comes from the cache (no engine call).
  if (cache)
    for (let round = 0; round < ROUNDS; round += 1)
      for (const q of questions) {
        await calls['POST /v1/memories/search'](q, 'hybrid');
        const [ms] = await timed(() => calls['POST /v1/memories/search'](q, 'hybrid'));
        const key = 'POST /v1/memories/search hybrid, asked before';
        samples.set(key, [...(samples.get(key) ?? []), ms]);
      }
  // The engine's own share: one new question embedded alone.
  const embedOnly: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1)
    for (const q of questions) {
      forget();
      embedOnly.push((await timed(() => runtime.embedder.embedQueries([q])))[0]);
    }
  // The vector statement alone (what memory search runs for meaning), by k: recall asks for
  // max(100, 4 x candidates) neighbours, 240 at limit 10, and filters them to the project.
  const byK = new Map<number, number[]>();
  const now = new Date().toISOString();
  const questionVectors: number[][] = [];
  for (const q of questions) questionVectors.push(...(await runtime.embedder.embedQueries([q])));
  for (let round = 0; round < ROUNDS; round += 1)
    for (const k of [60, 120, 240, 480, 960])
      for (const vector of questionVectors) {
        const [ms] = await timed(() =>
          graph.read((tx) =>
            tx.run('memories/vector', {
              project_id: tenant.projectId,
              now,
              valid_at: now,
              kinds: null,
              vector,
              model,
              k,
              exact_up_to: EXACT_UP_TO,
              min_similarity: similarityFloor(model),
            }),
          ),
        );
        byK.set(k, [...(byK.get(k) ?? []), ms]);
      }

  console.log(
    `\n== ${TOTAL} memories with vectors in the project (${Math.round(TOTAL * 1.2)} in the index), ` +
      `${questions.length} questions x ${ROUNDS} rounds, limit 10 ==`,
  );
  for (const [key, s] of samples)
    console.log(
      `${key.padEnd(44)} p50 ${fmt(percentile(s, 50)).padStart(9)}  p95 ${fmt(percentile(s, 95)).padStart(9)}  max ${fmt(Math.max(...s)).padStart(9)}`,
    );
  console.log(
    `${'embedding one question (engine call alone)'.padEnd(44)} p50 ${fmt(percentile(embedOnly, 50)).padStart(9)}  p95 ${fmt(percentile(embedOnly, 95)).padStart(9)}`,
  );
  for (const [k, s] of byK)
    console.log(
      `${`vector statement alone, k = ${k}`.padEnd(44)} p50 ${fmt(percentile(s, 50)).padStart(9)}  p95 ${fmt(percentile(s, 95)).padStart(9)}`,
    );

  if (DRAIN > 0) {
    // The backlog drain rate: memories created through the API (queued in the apply), drained by the worker.
    const texts = Array.from({ length: DRAIN }, (_, i) => `${MEMORIES[i % MEMORIES.length]!.content} (drain ${i})`);
    for (let i = 0; i < texts.length; i += 100)
      await post('/v1/memories', { memories: texts.slice(i, i + 100).map((content) => ({ content })) });
    const began = performance.now();
    for (;;) {
      const backlog = await readBacklog(graph);
      if (backlog.count === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const seconds = (performance.now() - began) / 1000;
    console.log(
      `\nbacklog drain: ${DRAIN} memories in ${seconds.toFixed(1)} s = ${(DRAIN / seconds).toFixed(1)} memories/s; ` +
        `100k at this rate: ${(100_000 / (DRAIN / seconds) / 3600).toFixed(2)} h`,
    );
  }
} finally {
  await env.stop();
}
