// Issue 27's figures in one run on one instance, the API interleaved with the raw neo4j-driver
// writing the same memory nodes (labels, properties, indexes) so machine load falls on both alike.
// Prints one JSON line per figure (and a table on stderr):
//   write_batch100_p50_ratio, write_single_p50_ratio   API / raw driver, rounds interleaved
//   fill_memories_per_s                                4 concurrent clients of batch-100 creates
//   fill_raw_memories_per_s                            the same through the raw driver, in turns with
//                                                      the API's (the machine's ceiling for the fill)
//   search_p95_ms (lexical and hybrid)                 memory search at the filled size
//   mixed_rps, mixed_p95_ms                            16 clients, 70% reads / 30% writes, every
//                                                      acknowledged write read back afterwards
//   mixed_raw_rps, mixed_raw_p95_ms                    the same mix and clients through the raw
//                                                      driver (no HTTP, auth or delta): this
//                                                      machine's ceiling for the mixed figures
//   mixed_cpu_ms_per_request, mixed_raw_cpu_ms_...     CPU per request of this process (clients
//                                                      and API) and of Neo4j in each mixed load:
//                                                      on a machine whose cores are all busy, rps
//                                                      is about cores x 1000 / that figure
//   mentions_backlog_at_mixed                          the mention worker's queue (recall's hops) as the
//                                                      mixed loads begin, and after the API's
// Each mixed load is measured after --warmup seconds of the same load (not counted).
// Run: npm run bench:gauntlet -- [--memories 100000] [--seconds 30] [--clients 16] [--processes 1] [--warmup 15]
//   [--settle]
//   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 25687, or NEO4J_URI). It asserts nothing.
import crypto from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import neo4j from 'neo4j-driver';
import { luceneQuery } from '../src/db/tenant.js';
import {
  benchTenant,
  cpuDuring,
  figure,
  fillText,
  fmt,
  listenerPid,
  mentionsBacklog,
  mentionsFigure,
  percentile,
  rawCreateMemories,
  rawMemoryRow,
  startApiProcess,
  startBench,
  timed,
  words,
} from './support.js';

const { values } = parseArgs({
  options: {
    memories: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '30' },
    clients: { type: 'string', default: '16' },
    // More API processes (npm run api) beside the bench's own: the mixed load is spread over all.
    processes: { type: 'string', default: '1' },
    // Seconds of the same mixed load before each measured one (not counted): the engine's JIT compiles the
    // statements' hot paths over their first thousands of runs, and a cold engine serves far fewer.
    warmup: { type: 'string', default: '15' },
    // Wait until the mention worker has read every filled memory before the mixed loads (its backlog is printed
    // either way): without it the mixed loads run beside that drain, as a service's traffic does after an import.
    settle: { type: 'boolean', default: false },
  },
});
const PROCESSES = Number(values.processes);
const TARGET = Number(values.memories);
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const CLIENTS = Number(values.clients);
const neo4jPort = Number(process.env.GKS_BENCH_NEO4J_PORT ?? 25687);

/**
 * The mixed load: CLIENTS clients for `seconds`, each running `step` back to back with its client number,
 * its turn and a pick of 0-9 (0-2 a write, 3-7 a search, 8-9 a read by id); the latency of every step.
 */
async function mixedLoad(
  step: (c: number, i: number, pick: number) => Promise<void>,
  seconds: number,
): Promise<number[]> {
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 0; performance.now() < deadline; i += 1) {
        const pick = (c * 7919 + i * 104729) % 10;
        latencies.push((await timed(() => step(c, i, pick)))[0]);
      }
    }),
  );
  return latencies;
}

const env = await startBench('gauntlet', { neo4j: neo4jPort, temporal: neo4jPort - 454 });
const { service, endpoints } = env;
const { config } = service.deps;
const auth = endpoints.neo4jAuth ?? { user: config.neo4j.user, password: config.neo4j.password };
const others = await Promise.all(
  Array.from({ length: PROCESSES - 1 }, () =>
    startApiProcess({
      NEO4J_URI: endpoints.neo4jUri,
      NEO4J_USER: auth.user,
      NEO4J_PASSWORD: auth.password,
      TEMPORAL_ADDRESS: endpoints.temporalAddress,
      GKS_EMBEDDINGS_PORT: String(neo4jPort + 5),
    }),
  ),
);
const urls = [service.url, ...others.map((o) => o.url)];
const driver = neo4j.driver(endpoints.neo4jUri, neo4j.auth.basic(auth.user, auth.password));
try {
  const tenant = await benchTenant(service);
  const headers = { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' };
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    base = service.url,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- reply bodies are read loosely
  ): Promise<{ status: number; json: any }> => {
    const r = await fetch(`${base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: r.status, json: await r.json() };
  };
  let serial = 0;
  const memory = () => ({ content: fillText((serial += 1)), kind: 'fact' });
  /** The raw driver writing the same memory nodes the API writes (no delta, no HTTP). */
  const raw = (count: number, firstId = crypto.randomUUID()): Promise<void> =>
    rawCreateMemories(
      driver,
      tenant.projectId,
      Array.from({ length: count }, (_, i) => rawMemoryRow(memory().content, i === 0 ? firstId : undefined)),
    );
  const api = async (count: number): Promise<void> => {
    const body = count === 1 ? memory() : { memories: Array.from({ length: count }, memory) };
    const r = await call('POST', '/v1/memories', body);
    if (r.status !== 201) throw new Error(`create answered ${r.status}: ${JSON.stringify(r.json).slice(0, 300)}`);
  };

  // Writes: API and raw driver alternate round by round, once the service has finished starting (its first
  // planning of the preflight checks loads the engine for seconds) and both sides are warm: the figures are
  // steady-state ratios, not the first seconds of a process (its code and Neo4j's plans still compiling). A batch
  // takes 100 rounds: with 40, its ratio moved by 0.1 from run to run on the same code.
  await service.preflightPlans.tick();
  for (const [name, count, rounds, warm] of [
    ['write_batch100', 100, 100, 10],
    ['write_single', 1, 200, 100],
  ] as const) {
    for (let i = 0; i < warm; i += 1) await Promise.all([api(count), raw(count)]); // warm-up
    const a: number[] = [];
    const d: number[] = [];
    for (let i = 0; i < rounds; i += 1) {
      a.push((await timed(() => api(count)))[0]);
      d.push((await timed(() => raw(count)))[0]);
    }
    figure(`${name}_p50_ratio`, percentile(a, 50) / percentile(d, 50), {
      api_p50_ms: percentile(a, 50),
      raw_p50_ms: percentile(d, 50),
    });
    process.stderr.write(`${name}: API p50 ${fmt(percentile(a, 50))}, raw ${fmt(percentile(d, 50))}\n`);
  }

  // Fill with 4 concurrent batch-100 clients: the API and the raw driver take turns of 20 batches each (5 per
  // client), so both fill at the same store sizes and machine load; each side's rate is its memories over its own
  // time. The raw rate is this machine's ceiling for the API's.
  const countMemories = async (): Promise<number> =>
    neo4j.integer.toNumber(
      (
        await driver.executeQuery('MATCH (m:Memory {project_id: $p}) RETURN count(m) AS n', { p: tenant.projectId })
      ).records[0]!.get('n'),
    );
  let have = await countMemories();
  const fill = { api: { memories: 0, seconds: 0 }, raw: { memories: 0, seconds: 0 } };
  for (let turn = 0; have < TARGET; turn += 1) {
    const side = turn % 2 === 0 ? 'api' : 'raw';
    const start = performance.now();
    const before = have;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let b = 0; b < 5 && have < TARGET; b += 1) {
          have += 100;
          await (side === 'api' ? api(100) : raw(100));
        }
      }),
    );
    fill[side].seconds += (performance.now() - start) / 1000;
    fill[side].memories += have - before;
  }
  const total = await countMemories();
  figure('fill_memories_per_s', fill.api.memories / fill.api.seconds, { memories: total });
  figure('fill_raw_memories_per_s', fill.raw.memories / fill.raw.seconds, { memories: total });

  // Search at the filled size (the question words come from the same vocabulary as the memories), as bench/scale.ts
  // measures it: once the service has planned its preflight checks for the filled size (the fill crossed plan sets,
  // and planning takes Neo4j's cores for seconds), after SEARCH_WARMUP searches not counted. The first searches on
  // a fresh engine are its JIT compiling the search's hot paths: right after a 100k fill, 200 searches took 7 s of
  // Neo4j's C2 compiler threads beside 4 s of its Bolt workers (.cache/probe/settle.ts). Their p95 is printed too
  // (first_p95_ms), so what a search meets on a cold engine stays in view. Each mode asks questions of its own:
  // asked again, a question finds its terms cached (and, by meaning, its vector).
  await service.preflightPlans.tick();
  const SEARCH_WARMUP = 200;
  for (const [m, mode] of (['lexical', 'hybrid'] as const).entries()) {
    const first: number[] = [];
    const s: number[] = [];
    for (let i = 0; i < SEARCH_WARMUP + 200; i += 1) {
      const [ms] = await timed(() =>
        call('POST', '/v1/memories/search', { query: words(i + 9e6 + m * 1e5, 2), limit: 10, mode }),
      );
      (i < SEARCH_WARMUP ? first : s).push(ms);
    }
    figure(`search_${mode}_p95_ms`, percentile(s, 95), {
      p50_ms: percentile(s, 50),
      first_p95_ms: percentile(first, 95),
      memories: have,
    });
  }

  // What the mention worker (recall's hops) still has to read of the fill when the mixed loads begin.
  await mentionsFigure(service.deps.graph, 'mentions_backlog_at_mixed', values.settle === true);
  // Mixed load: 70% reads (search, get), 30% writes; every acknowledged write is read back after.
  const acknowledged: string[] = [];
  let errors5xx = 0;
  const neo4jPid = listenerPid(neo4jPort);
  /** The figure `name`: a mixed load's CPU per request, this process's and Neo4j's, and their sum. */
  const cpuFigure = (name: string, cpu: { nodeMs: number; engineMs: number | null }, requests: number) => {
    const node = cpu.nodeMs / requests;
    const engine = cpu.engineMs === null ? null : cpu.engineMs / requests;
    figure(name, node + (engine ?? 0), {
      node_ms: +node.toFixed(2),
      neo4j_ms: engine === null ? null : +engine.toFixed(2),
      cores: os.cpus().length,
      api_processes: urls.length,
    });
  };
  /** The mix warmed up for WARMUP seconds, then measured for SECONDS, with the CPU the measured part took. */
  const warmThenMeasure = async (step: (c: number, i: number, pick: number) => Promise<void>) => {
    await mixedLoad(step, WARMUP);
    return cpuDuring(neo4jPid, () => mixedLoad(step, SECONDS));
  };
  const apiCpu = await warmThenMeasure(async (c, i, pick) => {
    const base = urls[c % urls.length];
    const r = await (pick < 3
      ? call('POST', '/v1/memories', memory(), base)
      : pick < 8 || acknowledged.length === 0
        ? call('POST', '/v1/memories/search', { query: words(c * 1e5 + i, 2), limit: 10, mode: 'lexical' }, base)
        : call('GET', `/v1/memories/${acknowledged[(c + i) % acknowledged.length]}`, undefined, base));
    if (r.status >= 500) errors5xx += 1;
    if (pick < 3 && r.status === 201) acknowledged.push(String(r.json.id ?? r.json.memories?.[0]?.id));
  });
  const latencies = apiCpu.result;
  figure('mentions_backlog_after_mixed', await mentionsBacklog(service.deps.graph));
  let lost = 0;
  for (const id of acknowledged) if ((await call('GET', `/v1/memories/${id}`)).status !== 200) lost += 1;
  figure('mixed_rps', latencies.length / SECONDS, {
    clients: CLIENTS,
    seconds: SECONDS,
    api_processes: urls.length,
    errors_5xx: errors5xx,
  });
  figure('mixed_p95_ms', percentile(latencies, 95), {
    p50_ms: percentile(latencies, 50),
    writes_acknowledged: acknowledged.length,
    writes_lost: lost,
  });
  cpuFigure('mixed_cpu_ms_per_request', apiCpu, latencies.length);

  // The same mix through the raw driver: the full-text statement memory search runs (its ten best, whole),
  // the create of raw(), a read by id. What the machine gives with no HTTP, authentication or delta.
  const rawIds: string[] = [];
  const rawCpu = await warmThenMeasure(async (c, i, pick) => {
    if (pick < 3) {
      const id = crypto.randomUUID();
      await raw(1, id);
      rawIds.push(id);
    } else if (pick < 8 || rawIds.length === 0) {
      await driver.executeQuery(
        `CALL db.index.fulltext.queryNodes('memory_text', $lucene, {limit: 60}) YIELD node, score
         WHERE node.project_id = $p AND NOT node:Pending
         RETURN node {.id, .name, .kind, .content, .created_at, .updated_at} AS memory, score
         ORDER BY score DESC LIMIT 10`,
        { lucene: luceneQuery(words(c * 1e5 + i + 5e8, 2), tenant.projectId), p: tenant.projectId },
        { routing: neo4j.routing.READ },
      );
    } else {
      await driver.executeQuery(
        'MATCH (m:Knowledge {id: $id}) RETURN m {.id, .name, .kind, .content, .created_at} AS memory',
        { id: rawIds[(c + i) % rawIds.length] },
        { routing: neo4j.routing.READ },
      );
    }
  });
  const rawLatencies = rawCpu.result;
  figure('mixed_raw_rps', rawLatencies.length / SECONDS, { clients: CLIENTS, seconds: SECONDS });
  figure('mixed_raw_p95_ms', percentile(rawLatencies, 95), { p50_ms: percentile(rawLatencies, 50) });
  cpuFigure('mixed_raw_cpu_ms_per_request', rawCpu, rawLatencies.length);
} finally {
  await Promise.all(others.map((o) => o.stop()));
  await driver.close();
  await env.stop();
}
