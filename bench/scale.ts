// Issue 27's scale bench: fills N memories through the API (4 concurrent clients of batch-100
// creates, as the gauntlet fills), then prints, one JSON line each: the fill rate and time, the
// store's size on disk, the Neo4j process's resident memory (heap, page cache and native) beside its configured heap and page cache, and p50/p95 of memory search
// (lexical and hybrid), POST /v1/search and context compile at that size. Vectors: the fill queues
// every memory for embedding as production does; embedding 1M texts takes this machine hours, so
// hybrid figures are of a graph whose vectors are still being written (the hybrid line says how
// many memories carried one). With --vectors, every memory has one when the reads are measured: the
// backlog worker is stopped before the fill, and after it each memory is given a perturbed copy of a
// real vector of one of 256 texts of the fill (bench/vectors.ts; the write rate is a figure of its own),
// and the reads add /v1/search by meaning and words (hybrid) and the engine's call for one question alone.
// mentions_backlog_at_reads: the memories the mention worker (recall's hops) has still to read when the reads begin;
// --settle waits until it has read them all.
// Run: npm run bench:scale -- [--memories 1000000] [--samples 200] [--vectors] [--settle]
//   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 27687, sized from the machine). It asserts nothing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  apiCaller,
  awaitEngineIdle,
  benchTenant,
  figure,
  fillText,
  mentionsFigure,
  percentile,
  startBench,
  supervisedPid,
  timed,
  words,
} from './support.js';
import { fillPool, memoryIds, writeVectors } from './vectors.js';

const { values } = parseArgs({
  options: {
    memories: { type: 'string', default: '1000000' },
    samples: { type: 'string', default: '200' },
    vectors: { type: 'boolean', default: false },
    // A file to write every measured request's start (ms since the reads began) and latency to, per figure:
    // whether slow requests cluster in time (background work) or recur (collections) is read from it.
    timings: { type: 'string' },
    // Wait until the mention worker has read every filled memory before the reads (its backlog is printed either
    // way): without it the reads run beside that drain, as a service's traffic does after an import.
    settle: { type: 'boolean', default: false },
  },
});
const TARGET = Number(values.memories);
const SAMPLES = Number(values.samples);
const VECTORS = values.vectors === true;
/** How many texts of the fill are embedded for real with --vectors; every memory gets one of their vectors. */
const POOL = 256;
const WARMUP = 200;
const neo4jPort = Number(process.env.GKS_BENCH_NEO4J_PORT ?? 27687);

function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? sizeOf(full) : entry.isFile() ? fs.statSync(full).size : 0;
  }
  return total;
}

const env = await startBench('scale', { neo4j: neo4jPort, temporal: neo4jPort - 454 });
const { service } = env;
const graph = service.deps.graph;
const embeddings = service.deps.runtime.embeddings;
/** With --vectors, the engine that embeds the pool and the questions; null otherwise. */
const embedder = VECTORS ? (embeddings?.embedder ?? null) : null;
try {
  if (VECTORS && !embedder) throw new Error('--vectors needs the embedding engine (EMBEDDINGS unset)');
  // With --vectors the bench writes every vector itself: the worker would take the cores embedding a few.
  if (embedder) await embeddings?.worker?.stop();
  const tenant = await benchTenant(service);
  const call = apiCaller(service.url, tenant.key);

  // Fill: 4 clients of batch-100 creates, progress on stderr every 50k.
  let serial = 0;
  let have = 0;
  let nextReport = 50_000;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (have < TARGET) {
        have += 100;
        const memories = Array.from({ length: 100 }, () => ({
          content: fillText((serial += 1)),
          kind: 'fact',
        }));
        const r = await call('POST', '/v1/memories', { memories });
        if (r.status !== 201) throw new Error(`create answered ${r.status}: ${JSON.stringify(r.json).slice(0, 300)}`);
        if (have >= nextReport) {
          nextReport += 50_000;
          const s = (performance.now() - began) / 1000;
          process.stderr.write(`  filled ${have} in ${s.toFixed(0)} s (${(have / s).toFixed(0)}/s)\n`);
        }
      }
    }),
  );
  const fillSeconds = (performance.now() - began) / 1000;
  figure('fill_memories_per_s', have / fillSeconds, { memories: have, seconds: Number(fillSeconds.toFixed(1)) });
  await graph.read((tx) => tx.runText('CALL db.awaitIndexes(3600)'));

  if (embedder) {
    const pool = await fillPool(embedder, POOL);
    const ids = await memoryIds(graph, tenant.projectId);
    let reported = 0;
    const seconds = await writeVectors(graph, ids, pool, embedder.model.id, {
      seed: 1,
      batch: 2_000,
      progress: (n) => {
        if (n - reported < 100_000 && n < ids.length) return;
        reported = n;
        process.stderr.write(`  ${n} vectors written\n`);
      },
    });
    // The vector index merges its segments after a bulk write (docs/operations.md, "Vector indexes"): the reads are
    // measured once that is done, as a service whose vectors trickle in from the embedding worker reads them.
    const settled = await awaitEngineIdle(env);
    figure('vectors_written_per_s', ids.length / seconds, {
      vectors: ids.length,
      seconds: Number(seconds.toFixed(1)),
      settle_seconds: settled,
      pool: POOL,
      model: embedder.model.id,
    });
  }

  // Store size (data files apart from transaction logs) and the engine process's memory.
  const storeDir = path.join(env.dataDir, 'neo4j');
  if (fs.existsSync(storeDir)) {
    const logs = path.join(storeDir, 'data', 'transactions');
    const txBytes = fs.existsSync(logs) ? sizeOf(logs) : 0;
    figure('store_bytes', sizeOf(storeDir) - txBytes, { transaction_log_bytes: txBytes, dir: storeDir });
  }
  // The JVM's resident memory (heap in use + page cache touched + native) and its peak, from /proc.
  const pid = supervisedPid(env, 'neo4j');
  const procStatus = pid ? `/proc/${pid}/status` : '';
  if (procStatus && fs.existsSync(procStatus)) {
    const kb = (key: string) =>
      Number(
        /\d+/.exec(
          fs
            .readFileSync(procStatus, 'utf8')
            .split('\n')
            .find((l) => l.startsWith(key)) ?? '',
        )?.[0] ?? 0,
      );
    const local = service.deps.config.neo4j.local;
    figure('neo4j_rss_mb', kb('VmRSS:') / 1024, {
      peak_mb: Number((kb('VmHWM:') / 1024).toFixed(1)),
      heap_max_mb: local.heapMb,
      page_cache_mb: local.pageCacheMb,
    });
  } else {
    process.stderr.write('  neo4j memory: not a local engine (NEO4J_URI set), not measured\n');
  }

  // Reads at this size, once the service has planned its preflight checks for it (the fill crossed plan sets:
  // src/preflight/plans.ts; planning takes Neo4j's cores for 10 to 20 s, and a figure taken then measures that).
  await service.preflightPlans.tick();
  await mentionsFigure(graph, 'mentions_backlog_at_reads', values.settle === true);
  const [vectors] = await graph.read((tx) =>
    tx.runText('MATCH (m:Memory {project_id: $p}) WHERE m.embedding IS NOT NULL RETURN count(m) AS n', {
      p: tenant.projectId,
    }),
  );
  /** Neo4j's garbage collections so far (jstat -gc: count and seconds, young and whole), or null without jstat. */
  const gc = (): { count: number; seconds: number } | null => {
    if (!pid) return null;
    const out = spawnSync('jstat', ['-gc', String(pid)], { encoding: 'utf8' }).stdout ?? '';
    const [head, row] = out.trim().split('\n');
    if (!head || !row) return null;
    const cols = Object.fromEntries(
      head
        .trim()
        .split(/\s+/)
        .map((k, i) => [k, Number(row.trim().split(/\s+/)[i])]),
    );
    return { count: (cols.YGC ?? 0) + (cols.FGC ?? 0), seconds: (cols.YGCT ?? 0) + (cols.FGCT ?? 0) };
  };
  const timings: Record<string, [number, number][]> = {};
  const readsBegan = performance.now();
  const measure = async (name: string, run: (i: number) => Promise<{ status: number }>, extra = {}) => {
    const s: number[] = [];
    const at = (timings[name] = [] as [number, number][]);
    let gcBefore = gc();
    // WARMUP requests first, not counted: Neo4j's JIT compiles a statement's hot paths over its first runs.
    for (let i = 0; i < SAMPLES + WARMUP; i += 1) {
      const began = performance.now() - readsBegan;
      const [ms, r] = await timed(() => run(i));
      if (r.status !== 200) throw new Error(`${name} answered ${r.status}`);
      if (i === WARMUP - 1) gcBefore = gc();
      if (i >= WARMUP) {
        s.push(ms);
        at.push([Math.round(began), Number(ms.toFixed(2))]);
      }
    }
    const gcAfter = gc();
    figure(`${name}_p95_ms`, percentile(s, 95), {
      p50_ms: Number(percentile(s, 50).toFixed(1)),
      p99_ms: Number(percentile(s, 99).toFixed(1)),
      // Neo4j's collections while the counted requests ran: a pause the size of the tail, as often, is the tail.
      neo4j_gc:
        gcBefore && gcAfter
          ? { count: gcAfter.count - gcBefore.count, ms: Math.round((gcAfter.seconds - gcBefore.seconds) * 1000) }
          : null,
      memories: have,
      ...extra,
    });
  };
  // Each mode asks questions of its own: asked again, a question finds its terms cached (and, by meaning, its vector).
  for (const [m, mode] of (['lexical', 'hybrid'] as const).entries()) {
    await measure(
      `memory_search_${mode}`,
      (i) => call('POST', '/v1/memories/search', { query: words(i + 9e6 + m * 1e5, 2), limit: 10, mode }),
      mode === 'hybrid' ? { memories_with_vectors: vectors?.n } : {},
    );
  }
  await measure('search', (i) => call('POST', '/v1/search', { query: words(i + 8e6, 2), limit: 10, mode: 'lexical' }));
  if (embedder) {
    await measure(
      'search_hybrid',
      (i) => call('POST', '/v1/search', { query: words(i + 7.5e6, 2), limit: 10, mode: 'hybrid' }),
      { memories_with_vectors: vectors?.n },
    );
    // The engine's share of each hybrid read: one new question embedded alone.
    await measure('embed_question', async (i) => {
      await embedder.embedQueries([words(i + 6.5e6, 2)]);
      return { status: 200 };
    });
  }
  await measure('context_compile', (i) =>
    call('POST', '/v1/context/compile', { query: words(i + 5e6, 3), slice: { budget: { max_tokens: 2000 } } }),
  );
  if (values.timings) fs.writeFileSync(values.timings, JSON.stringify(timings));
} finally {
  await env.stop();
}
