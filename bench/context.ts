// Context compile latency: npx tsx bench/context.ts [--runs N] [--warmup N]
// One project holds 100k committed memories and 10k entities (each entity RELATED_TO two others
// and WORKS_FOR one; each memory HAS_SUBJECT one entity), bulk-loaded by UNWIND batches of 2,000. Then
// POST /v1/context/compile with a 4,000-token budget over HTTP: an inline slice with a subject
// (hops 1) and a query, all three planes; p50/p95/max of the first N requests after the load (cold)
// and of N more after a warm-up of --warmup requests (steady, default 300). Target p95 < 100 ms.
import os from 'node:os';
import { tenantToken } from '../src/db/tenant.js';
import { gatherCandidates } from '../src/context/candidates.js';
import { compilePack } from '../src/context/compile.js';
import { normalizeDefinition } from '../src/slices/definition.js';
import type { Graph } from '../src/db/graph.js';
import { benchTenant, fmt, percentile, startBench, timed, words } from './support.js';

const MEMORIES = 100_000;
const ENTITIES = 10_000;
const BATCH = 2_000;
const PREFIX = 'c-';
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 100;
const warmupArg = process.argv.indexOf('--warmup');
const WARMUP = warmupArg > 0 ? Number(process.argv[warmupArg + 1]) : 300;

async function load(graph: Graph, projectId: string): Promise<void> {
  const base = { prefix: PREFIX, project_id: projectId, tenant: tenantToken(projectId), now: new Date().toISOString() };
  const rows = Array.from({ length: ENTITIES }, (_, i) => ({
    i,
    name: `${words(i, 2)} ${i}`,
    description: words(i + 7, 12),
  }));
  // Small batches: every write transaction must finish within the driver's 60 s on a busy machine.
  for (let start = 0; start < ENTITIES; start += BATCH) {
    await graph.write((tx) =>
      tx.run('context/bench/load_entities', { ...base, rows: rows.slice(start, start + BATCH) }),
    );
  }
  for (let start = 0; start < ENTITIES; start += BATCH) {
    await graph.write((tx) =>
      tx.run('context/bench/load_relationships', {
        ...base,
        from: start,
        to: Math.min(ENTITIES, start + BATCH),
        entities: ENTITIES,
      }),
    );
  }
  for (let start = 0; start < MEMORIES; start += BATCH) {
    const batch = Array.from({ length: BATCH }, (_, k) => {
      const i = start + k;
      const content = `${words(i * 3 + 1, 18)}.`;
      return { i, subject: (i * 31) % ENTITIES, content, name: content.split(' ').slice(0, 8).join(' ') };
    });
    await graph.write((tx) => tx.run('context/bench/load_memories', { ...base, rows: batch }));
  }
}

async function main(): Promise<void> {
  const env = await startBench('context', {
    neo4j: Number(process.env.GKS_TEST_NEO4J_PORT ?? 20687),
    temporal: Number(process.env.GKS_TEST_TEMPORAL_PORT ?? 20233),
  });
  try {
    const graph = env.service.deps.graph;
    const tenant = await benchTenant(env.service);
    const [loadMs] = await timed(() => load(graph, tenant.projectId));
    process.stderr.write(`loaded ${MEMORIES} memories and ${ENTITIES} entities in ${fmt(loadMs)}\n`);
    // Measure the steady state, not the bulk load's aftermath: full-text indexes caught up.
    const [settleMs] = await timed(() => graph.read((tx) => tx.runText('CALL db.awaitIndexes(600)')));
    process.stderr.write(`indexes online in ${fmt(settleMs)}\n`);
    const compile = async (n: number) => {
      const body = {
        slice: { subject: { id: `${PREFIX}e${(n * 97) % ENTITIES}` }, hops: 1, budget: { max_tokens: 4000 } },
        query: words(n * 5 + 3, 3),
      };
      const response = await fetch(`${env.service.url}/v1/context/compile`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const pack = (await response.json()) as { budget: { used_tokens: number }; candidate_count: number };
      if (response.status !== 200) throw new Error(`compile answered ${response.status}: ${JSON.stringify(pack)}`);
      return pack;
    };
    const measure = async (label: string, from: number) => {
      const samples: number[] = [];
      let used = 0;
      let candidates = 0;
      for (let n = from; n < from + RUNS; n += 1) {
        const [ms, pack] = await timed(() => compile(n));
        samples.push(ms);
        used += pack.budget.used_tokens;
        candidates += pack.candidate_count;
      }
      console.log(
        `${label}: p50 ${fmt(percentile(samples, 50))}  p95 ${fmt(percentile(samples, 95))}  max ${fmt(Math.max(...samples))}  mean used_tokens ${(used / RUNS).toFixed(0)}  mean candidates ${(candidates / RUNS).toFixed(0)}  (load ${os.loadavg()[0]!.toFixed(1)})`,
      );
    };
    console.log(
      `context compile over HTTP, 4000-token budget, ${MEMORIES} memories + ${ENTITIES} entities, ${RUNS} runs each, ${os.cpus().length} cores`,
    );
    // Cold: the first requests after the bulk load (JIT of both the JVM and Node still warming up).
    await measure('cold (first requests after the load)', 0);
    // Steady: a long-running service, after WARMUP more requests with other queries and subjects.
    for (let n = RUNS; n < RUNS + WARMUP; n += 1) await compile(n);
    await measure(`steady (after ${WARMUP} more requests)`, RUNS + WARMUP);
    // Where the time goes, in process (no HTTP): the gather (concurrent READ transactions) against
    // the whole compile (gather, then rank, budget fit with token counts, render and hash in Node).
    const gatherMs: number[] = [];
    const compileMs: number[] = [];
    for (let n = RUNS + WARMUP; n < 2 * RUNS + WARMUP; n += 1) {
      const def = normalizeDefinition({
        subject: { id: `${PREFIX}e${(n * 97) % ENTITIES}` },
        hops: 1,
        budget: { max_tokens: 4000 },
      });
      const query = words(n * 5 + 3, 3);
      const now = new Date().toISOString();
      const request = { projectId: tenant.projectId, def, query, asOf: null, now };
      gatherMs.push((await timed(() => gatherCandidates(graph, request)))[0]);
      const compileRequest = { projectId: tenant.projectId, def, slice: null, query };
      compileMs.push((await timed(() => compilePack(env.service.deps, compileRequest)))[0]);
    }
    console.log(
      `in process: gather p50 ${fmt(percentile(gatherMs, 50))} p95 ${fmt(percentile(gatherMs, 95))}; whole compile p50 ${fmt(percentile(compileMs, 50))} p95 ${fmt(percentile(compileMs, 95))}`,
    );
  } finally {
    await env.stop();
  }
}

await main();
