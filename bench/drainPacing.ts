// A backlog drain beside live traffic (issue 58, part 1), on one instance in one run: a drain's rate (the embedding
// worker's, or with --queue mentions the mention worker's: recall's hops, held to the same goal) with no requests,
// paced and flat out (the idle baseline), and a mixed load (the gauntlet's: 30% writes, 50% lexical memory
// searches, 20% reads by id) with the backlog parked (its queue marks set aside: the baseline) and with it queued,
// the worker paced (src/shared/pacing.ts) and, for comparison, flat out. The live phases alternate for --rounds
// rounds, each round in a rotated order, so drift falls on all alike. Every acknowledged write is read back at the
// end. Prints one JSON line per figure (and a table on stderr):
//   drain_idle_per_s (paced, and unpaced as the baseline)   nodes drained a second with no requests
//   live_rps, live_p95_ms (backlog parked | queued paced | queued unpaced)
//   live_drain_per_s                                          nodes drained a second beside the load
//   ratios: drain_idle_paced / unpaced, live rps and p95 of queued / parked (the goal: >= 0.8, >= 0.85, <= 1.2)
// Run: npx tsx bench/drainPacing.ts [--memories 20000] [--seconds 30] [--warmup 10] [--clients 16] [--rounds 3]
//   [--queue vectors|mentions] (the mention worker reads ~700 memories a second alone: give it --memories 200000,
//   so the backlog outlasts the run; its figures count memories read where the vectors' count vectors stored)
//   (own Neo4j on GKS_BENCH_NEO4J_PORT, default 31687; the embedding engines on +5 and +6). Asserts nothing.
import { parseArgs } from 'node:util';
import neo4j from 'neo4j-driver';
import { EmbeddingWorker } from '../src/embeddings/worker.js';
import { mentionBatchSize, MentionWorker } from '../src/memories/mentionWorker.js';
import { DrainPacer, liveTraffic } from '../src/shared/pacing.js';
import {
  apiCaller,
  awaitEngineIdle,
  benchEmbeddings,
  benchTenant,
  cpuDuring,
  figure,
  fillText,
  listenerPid,
  percentile,
  processCpuMs,
  rawDriver,
  startBench,
  supervisedPid,
  timed,
  words,
} from './support.js';

const { values } = parseArgs({
  options: {
    memories: { type: 'string', default: '20000' },
    seconds: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '10' },
    clients: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '3' },
    queue: { type: 'string', default: 'vectors' },
  },
});
const MEMORIES = Number(values.memories);
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const CLIENTS = Number(values.clients);
const ROUNDS = Number(values.rounds);
if (values.queue !== 'vectors' && values.queue !== 'mentions') throw new Error('--queue is vectors or mentions');
const MENTIONS = values.queue === 'mentions';
/** The drained queue's mark, and what a drained node has. */
const MARK = MENTIONS ? 'mentions_queued_at' : 'embedding_queued_at';
const DONE = MENTIONS ? 'm.mentions_hash IS NOT NULL' : 'm.embedding IS NOT NULL';
const neo4jPort = Number(process.env.GKS_BENCH_NEO4J_PORT ?? 31687);

const env = await startBench('drain-pacing', { neo4j: neo4jPort, temporal: neo4jPort - 454 });
const { service } = env;
const runtime = MENTIONS ? null : benchEmbeddings(service);
const driver = rawDriver(env);
try {
  // The bench runs the drained queue's worker itself; the service's own drains stay stopped (with --queue
  // mentions the vectors stay queued, undrained: their engine takes no part; with vectors the mention worker reads
  // the fill before the figures, and the live writes after, as in a service).
  await service.deps.runtime.embeddings?.worker?.stop();
  if (MENTIONS) await service.deps.runtime.mentions?.stop();
  const tenant = await benchTenant(service);
  const call = apiCaller(service.url, tenant.key);

  // The backlog: MEMORIES memories through the API (4 clients of batch-100), every one queued for its vector.
  let serial = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async (_, c) => {
      for (let have = c * 100; have < MEMORIES; have += 400) {
        const memories = Array.from({ length: 100 }, () => ({ content: fillText((serial += 1)), kind: 'fact' }));
        const r = await call('POST', '/v1/memories', { memories });
        if (r.status !== 201) throw new Error(`fill answered ${r.status}`);
      }
    }),
  );
  process.stderr.write(`filled ${MEMORIES} in ${((performance.now() - began) / 1000).toFixed(0)} s\n`);
  // The fill's after-work (Neo4j compiling, index merges, the preflight's planning) is not the drain's.
  await service.preflightPlans.tick();
  process.stderr.write(`engine idle after ${await awaitEngineIdle(env)} s\n`);

  /** A statement as an auto-commit transaction (CALL ... IN TRANSACTIONS needs one). */
  const query = async (text: string, params: Record<string, unknown> = {}) => {
    const session = driver.session();
    try {
      return (await session.run(text, params)).records.map((r) => r.toObject());
    } finally {
      await session.close();
    }
  };
  /** Sets the backlog aside (its queue marks kept apart) or puts it back. */
  const park = () =>
    query(`MATCH (m:Memory) WHERE m.${MARK} IS NOT NULL AND NOT (${DONE})
           CALL (m) { SET m.bench_parked = m.${MARK}, m.${MARK} = null }
           IN TRANSACTIONS OF 5000 ROWS`);
  const unpark = () =>
    query(`MATCH (m:Memory) WHERE m.bench_parked IS NOT NULL
           CALL (m) { SET m.${MARK} = m.bench_parked, m.bench_parked = null } IN TRANSACTIONS OF 5000 ROWS`);
  /** Nodes the drain has done (vectors stored, or memories whose mentions were read). */
  const drainedNodes = async () =>
    neo4j.integer.toNumber((await query(`MATCH (m:Memory) WHERE ${DONE} RETURN count(m) AS n`))[0]!.n as number);
  const queued = async () =>
    neo4j.integer.toNumber(
      (await query(`MATCH (m:Memory) WHERE m.${MARK} IS NOT NULL RETURN count(m) AS n`))[0]!.n as number,
    );

  let worker: { start(): void; stop(): Promise<void> } | null = null;
  let pacer: DrainPacer | null = null;
  const startWorker = (paced: boolean) => {
    pacer = paced ? new DrainPacer(liveTraffic) : null;
    const { graph, logger, config } = service.deps;
    worker = runtime
      ? new EmbeddingWorker(graph, runtime.embedder, logger, {
          batchSize: config.embeddings.batchSize,
          ...(pacer ? { pacer } : {}),
        })
      : new MentionWorker(graph, logger, {
          batchSize: mentionBatchSize(config.embeddings.batchSize),
          ...(pacer ? { pacer } : {}),
        });
    worker.start();
  };
  const stopWorker = async () => {
    await worker?.stop();
    worker = null;
  };

  const neo4jPid = listenerPid(neo4jPort);
  const enginePid = supervisedPid(env, 'embeddings');
  /** Vectors stored a second over `seconds`, and the CPU Neo4j and the engine took. */
  const drainFor = async (seconds: number) => {
    const before = await drainedNodes();
    const engine0 = enginePid === null ? null : processCpuMs(enginePid);
    const cpu = await cpuDuring(neo4jPid, () => new Promise((r) => setTimeout(r, seconds * 1000)));
    const engine1 = enginePid === null ? null : processCpuMs(enginePid);
    return {
      perSecond: ((await drainedNodes()) - before) / seconds,
      neo4jCores: (cpu.engineMs ?? 0) / 1000 / seconds,
      engineCores: engine0 === null || engine1 === null ? null : (engine1 - engine0) / 1000 / seconds,
    };
  };

  // Idle: the drain alone, flat out then paced (requests: none).
  const idle: Record<string, number> = {};
  for (const paced of [false, true]) {
    startWorker(paced);
    await new Promise((r) => setTimeout(r, WARMUP * 1000));
    const d = await drainFor(SECONDS);
    await stopWorker();
    idle[paced ? 'paced' : 'unpaced'] = d.perSecond;
    figure('drain_idle_per_s', d.perSecond, {
      paced,
      neo4j_cores: +d.neo4jCores.toFixed(2),
      engine_cores: d.engineCores === null ? null : +d.engineCores.toFixed(2),
      queued: await queued(),
    });
  }
  figure('drain_idle_paced_ratio', idle.paced! / idle.unpaced!, { goal: '>= 0.8', queue: values.queue });

  // Live: the gauntlet's mix from CLIENTS clients, every acknowledged write read back at the end.
  const acknowledged: string[] = [];
  let errors5xx = 0;
  const mixed = async (seconds: number): Promise<{ all: number[]; search: number[] }> => {
    const all: number[] = [];
    const search: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let i = 0; performance.now() < deadline; i += 1) {
          const pick = (c * 7919 + i * 104729) % 10;
          const [ms, r] = await timed(() =>
            pick < 3
              ? call('POST', '/v1/memories', { content: fillText((serial += 1)), kind: 'fact' })
              : pick < 8 || acknowledged.length === 0
                ? call('POST', '/v1/memories/search', { query: words(c * 1e5 + i, 2), limit: 10, mode: 'lexical' })
                : call('GET', `/v1/memories/${acknowledged[(c + i) % acknowledged.length]}`),
          );
          if (r.status >= 500) errors5xx += 1;
          if (pick < 3 && r.status === 201) acknowledged.push(String((r.json as { id: string }).id));
          all.push(ms);
          if (pick >= 3 && pick < 8) search.push(ms);
        }
      }),
    );
    return { all, search };
  };
  // The load once first, not counted: the first minute of a mix on a fresh engine is its JIT compiling it.
  await park();
  await mixed(Math.max(30, WARMUP * 2));
  const phases = ['parked', 'queued_paced', 'queued_unpaced'] as const;
  const results: Record<string, { rps: number[]; p95: number[]; searchP95: number[]; drain: number[] }> = {};
  for (let round = 0; round < ROUNDS; round += 1) {
    // Each round starts one phase later (a Latin square over three rounds): the load's throughput still drifts
    // upward for minutes after the warm-up, and a fixed order gave the first phase the slowest minutes.
    for (const phase of phases.map((_, i) => phases[(i + round) % phases.length]!)) {
      if (phase === 'parked') await park();
      else await unpark();
      startWorker(phase !== 'queued_unpaced');
      await mixed(WARMUP);
      const before = await drainedNodes();
      const cpu = await cpuDuring(neo4jPid, () => mixed(SECONDS));
      const drained = ((await drainedNodes()) - before) / SECONDS;
      const yielded = pacer ? (pacer as DrainPacer).taken : null;
      await stopWorker();
      const { all, search } = cpu.result;
      const r = (results[phase] ??= { rps: [], p95: [], searchP95: [], drain: [] });
      r.rps.push(all.length / SECONDS);
      r.p95.push(percentile(all, 95));
      r.searchP95.push(percentile(search, 95));
      r.drain.push(drained);
      figure('live_rps', all.length / SECONDS, {
        phase,
        round,
        p95_ms: +percentile(all, 95).toFixed(1),
        p50_ms: +percentile(all, 50).toFixed(1),
        search_p95_ms: +percentile(search, 95).toFixed(1),
        drain_per_s: +drained.toFixed(1),
        neo4j_cores: +((cpu.engineMs ?? 0) / 1000 / SECONDS).toFixed(2),
        node_cores: +(cpu.nodeMs / 1000 / SECONDS).toFixed(2),
        pacer: yielded,
      });
    }
  }
  await unpark();
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const mean = (xs: number[]) => sum(xs) / xs.length;
  const base = results.parked!;
  for (const phase of ['queued_paced', 'queued_unpaced'] as const) {
    const r = results[phase]!;
    figure('live_rps_ratio', mean(r.rps) / mean(base.rps), {
      phase,
      goal: '>= 0.85',
      rounds: ROUNDS,
      queue: values.queue,
    });
    figure('live_p95_ratio', mean(r.p95) / mean(base.p95), {
      phase,
      goal: '<= 1.2',
      rounds: ROUNDS,
      queue: values.queue,
    });
    figure('live_drain_per_s', mean(r.drain), { phase });
  }
  let lost = 0;
  for (const id of acknowledged) if ((await call('GET', `/v1/memories/${id}`)).status !== 200) lost += 1;
  figure('live_errors_5xx', errors5xx, { writes_acknowledged: acknowledged.length, writes_lost: lost });
  process.stderr.write(
    `idle drain: ${idle.unpaced!.toFixed(1)}/s flat out, ${idle.paced!.toFixed(1)}/s paced\n` +
      phases
        .map(
          (p) =>
            `${p}: ${mean(results[p]!.rps).toFixed(1)} rps, p95 ${mean(results[p]!.p95).toFixed(1)} ms, ` +
            `drain ${mean(results[p]!.drain).toFixed(1)}/s`,
        )
        .join('\n') +
      '\n',
  );
} finally {
  await driver.close();
  await env.stop();
}
