// Issue 22 (engine half) benchmarks: the embedded engine's throughput (items/s) and memory, single
// query latency, batch-100 memory create with embeddings on versus off in the same run (rounds
// alternate, so machine load falls on both alike), and how fast the worker drains a backlog.
// Run: npx tsx bench/embeddings.ts   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 21787; the engine on +5;
// GKS_BENCH_DRAIN memories for the drain, default 1000; GKS_BENCH_SKIP_THROUGHPUT=1 skips the engine part)
// Figures on a shared 2-core machine are indicative only; it asserts nothing.
import fs from 'node:fs';
import { setEmbeddingQueue } from '../src/embeddings/queue.js';
import { readBacklog } from '../src/embeddings/status.js';
import { benchTenant, fmt, percentile, startBench, supervisedPid, timed, words } from './support.js';

const neo4jPort = Number(process.env.GKS_BENCH_NEO4J_PORT ?? 21787);
const temporalPort = Number(process.env.GKS_BENCH_TEMPORAL_PORT ?? 21333);
const drainCount = Number(process.env.GKS_BENCH_DRAIN ?? 1000);
const env = await startBench('embeddings', { neo4j: neo4jPort, temporal: temporalPort });
const { service } = env;
const runtime = service.deps.runtime.embeddings;
if (!runtime?.embedder || !runtime.worker)
  throw new Error('the benchmark needs the embedded engine (EMBEDDINGS unset)');
const { embedder, worker } = runtime;
const graph = service.deps.graph;
const enginePid = supervisedPid(env, 'embeddings');
const rssMb = () => {
  if (enginePid === null) return NaN;
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${enginePid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};
const hwmMb = () => {
  if (enginePid === null) return NaN;
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${enginePid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};
console.log(
  `engine ${embedder.model.id}, ${service.deps.config.embeddings.threads} thread(s); RSS at start ${rssMb().toFixed(0)} MB`,
);

console.log('\n== engine throughput (passages) ==');
const throughputSizes = process.env.GKS_BENCH_SKIP_THROUGHPUT === '1' ? [] : ([12, 150] as const);
for (const [label, size] of [
  ['memory-sized text (12 words)', 12],
  ['chunk-sized text (150 words)', 150],
] as const) {
  if (!(throughputSizes as readonly number[]).includes(size)) continue;
  for (const batch of [16, 32]) {
    const n = size > 100 ? 64 : 256;
    const texts = Array.from({ length: n }, (_, i) => `${words(i + batch * 1e5 + size, size)}.`);
    await embedder.embedPassages(texts.slice(0, 2));
    const [ms] = await timed(async () => {
      for (let i = 0; i < n; i += batch) await embedder.embedPassages(texts.slice(i, i + batch));
    });
    console.log(
      `${label.padEnd(32)} batch ${String(batch).padStart(2)}: ${((n / ms) * 1000).toFixed(1)} items/s (${n} texts)`,
    );
  }
}
const queries: number[] = [];
for (let i = 0; i < 100; i += 1) queries.push((await timed(() => embedder.embedQueries([words(i + 9e6, 6)])))[0]);
console.log(`single query embedding: p50 ${fmt(percentile(queries, 50))}, p95 ${fmt(percentile(queries, 95))}`);
console.log(`engine RSS now ${rssMb().toFixed(0)} MB, peak ${hwmMb().toFixed(0)} MB`);

const tenant = await benchTenant(service);
const headers = { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' };
const post = async (path: string, body: unknown) => {
  const r = await fetch(`${service.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  if (r.status >= 300) throw new Error(`${path} ${r.status} ${await r.text()}`);
  return r.json();
};
const batchOf = (seed: number) => ({
  memories: Array.from({ length: 100 }, (_, j) => ({ content: `${words(seed * 100 + j, 10)}.`, kind: 'fact' })),
});

console.log('\n== batch-100 memory create: embeddings off (today) vs queued vs queued + worker, alternating rounds ==');
const off: number[] = [];
const queued: number[] = [];
const on: number[] = [];
let seed = 3e6;
for (let i = 0; i < 4; i += 1) await post('/v1/memories', batchOf(seed++)); // warm-up
for (let round = 0; round < 30; round += 1) {
  // off: nothing queued, no worker embedding beside the write (the service before this change)
  await worker.stop();
  setEmbeddingQueue(false);
  off.push((await timed(() => post('/v1/memories', batchOf(seed++))))[0]);
  // queued: the write's transaction marks its memories; the worker is not running
  setEmbeddingQueue(true);
  queued.push((await timed(() => post('/v1/memories', batchOf(seed++))))[0]);
  // on: queued, and the worker embedding earlier batches meanwhile (the engine at its lower CPU priority)
  worker.start();
  await new Promise((r) => setTimeout(r, 100));
  on.push((await timed(() => post('/v1/memories', batchOf(seed++))))[0]);
}
const p = (s: number[], q: number) => percentile(s, q);
const pct = (a: number, b: number) => `${((a / b - 1) * 100).toFixed(1)}%`;
console.log(`off            p50 ${fmt(p(off, 50))} p95 ${fmt(p(off, 95))}`);
console.log(
  `queued         p50 ${fmt(p(queued, 50))} p95 ${fmt(p(queued, 95))}  (vs off: p50 ${pct(p(queued, 50), p(off, 50))}, p95 ${pct(p(queued, 95), p(off, 95))})`,
);
console.log(
  `queued+worker  p50 ${fmt(p(on, 50))} p95 ${fmt(p(on, 95))}  (vs off: p50 ${pct(p(on, 50), p(off, 50))}, p95 ${pct(p(on, 95), p(off, 95))}; goal: within 5%)`,
);

if (drainCount === 0) {
  await env.stop();
  process.exit(0);
}
console.log(`\n== backlog drain: ${drainCount} memories written with the worker stopped ==`);
await worker.stop();
console.log(`(first draining what the create rounds left: ${(await readBacklog(graph)).count})`);
await worker.drain(); // whatever the create rounds left
for (let i = 0; i < drainCount / 100; i += 1) await post('/v1/memories', batchOf(seed++));
const before = await readBacklog(graph);
console.log(`backlog ${before.count}, oldest ${before.oldest_age_seconds ?? 0} s`);
const [drainMs] = await timed(() => worker.drain());
const after = await readBacklog(graph);
console.log(
  `drained ${before.count - after.count} in ${(drainMs / 1000).toFixed(1)} s: ${(((before.count - after.count) / drainMs) * 1000).toFixed(1)} items/s; ` +
    `100k memories would take about ${(100_000 / ((before.count - after.count) / drainMs) / 3.6e6).toFixed(1)} h at this rate`,
);
console.log(`engine RSS ${rssMb().toFixed(0)} MB, peak ${hwmMb().toFixed(0)} MB`);
await env.stop();
