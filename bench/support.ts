// Shared benchmark plumbing: a service on its own Neo4j (or NEO4J_URI), a tenant with a key, and
// percentile helpers. Benchmarks print figures; they assert nothing.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import neo4j, { type Driver } from 'neo4j-driver';
import pino from 'pino';
import { loadConfig } from '../src/config/config.js';
import { ensureServices, type Endpoints } from '../src/runtime/services.js';
import { startService, type Service } from '../src/server.js';
import { createOrganization, createProject } from '../src/tenancy/service.js';
import { issueKey } from '../src/auth/keys.js';
import { grantCredits } from '../src/credits/service.js';
import { tenantToken } from '../src/db/tenant.js';
import { MEMORY_SHAPE_ID } from '../src/shapes/types.js';
import { readBacklog, type EmbeddingsRuntime } from '../src/embeddings/status.js';
import type { Graph } from '../src/db/graph.js';
import { MENTIONS_BACKLOG } from '../src/memories/mentionWorker.js';
import type { OpenAIEmbedder } from '../src/embeddings/client.js';

export interface BenchEnv {
  service: Service;
  endpoints: Endpoints;
  /** The local engines' data folder (removed at stop). */
  dataDir: string;
  stop(): Promise<void>;
}

export async function startBench(
  name: string,
  ports: { neo4j: number; temporal: number },
  /**
   * temporal: start the Temporal dev server (and, unless worker is false, a worker in this process); keep: leave
   * the bench's Neo4j data in place at start and stop (a bench that asks the same stored data again).
   */
  options: { temporal?: boolean; worker?: boolean; keep?: boolean } = {},
): Promise<BenchEnv> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
  };
  // Benchmarks that do not run loops skip Temporal by pointing at an address nobody dials.
  if (!options.temporal && !env.TEMPORAL_ADDRESS) env.TEMPORAL_ADDRESS = '127.0.0.1:1';
  const config = loadConfig(env);
  const dataDir = path.join(config.dataDir, `bench-${name}`);
  if (!config.neo4j.uri && !options.keep) fs.rmSync(dataDir, { recursive: true, force: true });
  const endpoints = await ensureServices(
    config,
    {
      dataDir,
      neo4jPort: ports.neo4j,
      temporalPort: ports.temporal,
      temporalUiPort: null,
      embeddingsPort: ports.neo4j + 5,
    },
    (l) => process.stderr.write(`${l}\n`),
  );
  const service = await startService(config, endpoints, {
    worker: !!options.temporal && options.worker !== false,
    // The read plan keeper rehearses while the API is idle (src/search/readPlans.ts): in a bench that is while the raw
    // driver takes its turn beside the API, whose baseline it would load. A bench measures once its graph is built.
    readPlans: false,
    port: 0,
    logger: pino({ level: 'silent' }),
  });
  // The service rehearses its read paths beside its first requests: a bench measures once that is done.
  await service.readsWarmed;
  const removeData = (): void => {
    if (!config.neo4j.uri && !options.keep) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const stop = async (): Promise<void> => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await service.close();
    await endpoints.stop();
    removeData();
  };
  // A bench stopped by a signal (kill, Ctrl-C) stops the engines it started, as its finally would have:
  // otherwise its Neo4j lives on, holding the bench's port, and the next run cannot start.
  // The in-process API is not closed first: a close waits for the bench's clients, which are still sending.
  function onSignal(signal: NodeJS.Signals): void {
    process.stderr.write(`${signal}: stopping the bench's engines…\n`);
    const code = signal === 'SIGINT' ? 130 : 143;
    void endpoints.stop().finally(() => {
      removeData();
      process.exit(code);
    });
  }
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return { service, endpoints, dataDir, stop };
}

/** The pid of an engine the bench started and supervises ('neo4j', 'embeddings', ...), or null (NEO4J_URI). */
export function supervisedPid(env: BenchEnv, name: string): number | null {
  return env.endpoints.supervisors.find((s) => s.name === name)?.status().pid ?? null;
}

/**
 * Waits until the bench's local Neo4j is idle: its CPU time (from /proc) grows by under 0.2 s over 2 s, so the
 * merges a bulk write set off (a vector index's Lucene segments above all) are done and do not run beside the
 * figures that follow. Resolves the seconds waited (at most `maxSeconds`), or null for an engine not started
 * here (NEO4J_URI), which is not watched.
 */
export async function awaitEngineIdle(env: BenchEnv, maxSeconds = 900): Promise<number | null> {
  const pid = supervisedPid(env, 'neo4j');
  const first = pid === null ? null : processCpuMs(pid);
  if (pid === null || first === null) return null;
  const began = performance.now();
  for (let before = first; ;) {
    await new Promise((r) => setTimeout(r, 2000));
    const now = processCpuMs(pid) ?? 0;
    if (now - before < 200 || performance.now() - began > maxSeconds * 1000) break;
    before = now;
  }
  return Number(((performance.now() - began) / 1000).toFixed(1));
}

/** A memory row for rawCreateMemories: its id, its content and, as the API names a memory, its first 8 words. */
export function rawMemoryRow(content: string, id: string = crypto.randomUUID()): RawMemoryRow {
  return { id, content, name: content.split(' ').slice(0, 8).join(' ') };
}

export interface RawMemoryRow {
  id: string;
  content: string;
  name: string;
}

/**
 * The raw driver's CREATE of one memory node as the API writes it (labels, properties, the mention queue's stamp
 * that EMBEDDINGS=off still writes), its fields read from `row`.
 */
const rawMemoryCreate = (row: string): string =>
  `CREATE (m:Knowledge:Memory {id: ${row}id, project_id: $p, content: ${row}content, name: ${row}name, kind: 'fact',
     scope: 'project', memory_schema: 'gks.memory/v1', shape_id: $shape, observed_at: datetime(), date_observed: date(),
     tenant: $tenant, created_at: datetime(), updated_at: datetime(), mentions_queued_at: datetime()})`;

/** One memory node by the raw driver, its fields as parameters: run with rawMemoryParams (writeLayers' single layers). */
export const RAW_MEMORY_CREATE = rawMemoryCreate('$');

/** The project's parameters of a raw memory write: its id, its tenant token and the memory shape. */
const rawProjectParams = (projectId: string) => ({
  p: projectId,
  tenant: tenantToken(projectId),
  shape: MEMORY_SHAPE_ID,
});

/** The parameters of RAW_MEMORY_CREATE: the row's fields and the project's. */
export function rawMemoryParams(projectId: string, row: RawMemoryRow): Record<string, string> {
  return { ...row, ...rawProjectParams(projectId) };
}

/**
 * The raw neo4j-driver writing memory nodes as the API writes them (the same labels, properties and indexes), with
 * no delta, HTTP or authentication, in one managed transaction: the baseline the gauntlet and writeLayers compare
 * the API's writes with.
 */
export async function rawCreateMemories(driver: Driver, projectId: string, rows: RawMemoryRow[]): Promise<void> {
  await driver.executeQuery(`UNWIND $rows AS row ${rawMemoryCreate('row.')}`, { rows, ...rawProjectParams(projectId) });
}

/** The service's embedded engine (its embedder, and worker), for the benches that need meaning. */
export function benchEmbeddings(service: Service): EmbeddingsRuntime & { embedder: OpenAIEmbedder } {
  const runtime = service.deps.runtime.embeddings;
  if (!runtime?.embedder) throw new Error('the benchmark needs the embedded engine (EMBEDDINGS unset)');
  return { ...runtime, embedder: runtime.embedder };
}

export async function benchTenant(
  service: Service,
): Promise<{ projectId: string; organizationId: string; key: string }> {
  const graph = service.deps.graph;
  const org = await createOrganization(graph, 'bench');
  const project = await createProject(graph, String(org.id), 'bench');
  const key = await issueKey(graph, { organizationId: String(org.id), projectId: String(project.id) });
  await grantCredits(graph, String(org.id), 1_000_000, 'bench');
  return { projectId: String(project.id), organizationId: String(org.id), key: key.key };
}

/**
 * Waits until a queue of the service is empty (the count of `statement`: the embedding worker's, as /v1/status says
 * embeddings.backlog, unless told), looking every `everyMs`; resolves the seconds it took.
 */
export async function backlogDrained(graph: Graph, statement?: string, everyMs = 500): Promise<number> {
  const began = performance.now();
  while ((await readBacklog(graph, statement)).count > 0) await new Promise((r) => setTimeout(r, everyMs));
  return (performance.now() - began) / 1000;
}

/** Waits until the mention worker's queue (mentions.backlog in /v1/status) is empty; resolves the seconds it took. */
export const mentionsDrained = (graph: Graph): Promise<number> => backlogDrained(graph, MENTIONS_BACKLOG);

/**
 * The figure `name`: the memories the mention worker has still to read as a bench's reads begin, after waiting for
 * it to read them all when `settle` (with the seconds that took).
 */
export async function mentionsFigure(graph: Graph, name: string, settle: boolean): Promise<void> {
  const settled = settle ? await mentionsDrained(graph) : null;
  figure(name, await mentionsBacklog(graph), { settled_s: settled === null ? null : +settled.toFixed(1) });
}

/** The memories the mention worker has still to read. */
export const mentionsBacklog = async (graph: Graph): Promise<number> =>
  (await readBacklog(graph, MENTIONS_BACKLOG)).count;

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

export async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

export const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

const WORDS = (
  'alpha amber anchor apple arch arrow atlas aurora autumn badge bamboo banner barley basin beacon beetle bell berry birch ' +
  'blossom breeze bridge bronze brook cabin cactus canal candle canyon carbon cedar cellar chalk cherry cipher citrus cliff clover ' +
  'cobalt comet copper coral cotton crane crater crystal cypress dawn delta desert diamond dune eagle echo ember falcon fern ' +
  'fjord flint forest fossil garnet geyser glacier granite grove harbor hazel heron horizon iris island ivory jade jasmine juniper ' +
  'kettle lagoon lantern larch lava lemon lilac linen lotus lunar maple marble meadow mesa meteor mint mirror moss nectar nickel ' +
  'oasis ocean olive onyx orchid otter oyster palm pebble pepper pine planet plum polar poppy prairie quartz quill rapid raven ' +
  'reef ridge river robin ruby saffron sage salmon sapphire savanna shadow silver slate spruce stone summit sunset swan ' +
  'thistle thunder tide timber topaz tulip tundra valley velvet violet walnut willow winter yarrow zephyr zinc'
).split(' ');

export function words(seed: number, count: number): string {
  let x = (seed * 2654435761) >>> 0;
  const out: string[] = [];
  for (let i = 0; i < count; i += 1) {
    x = (x * 1664525 + 1013904223) >>> 0;
    out.push(WORDS[x % WORDS.length]!);
  }
  return out.join(' ');
}

/** The n-th memory text of a bench's fill (from 1): ten words, the same in every bench and every run. */
export const fillText = (n: number): string => `${words(n + 7e6, 10)}.`;

/**
 * One more API process (npm run api) against the bench's engines, for the multi-process figures;
 * resolves once it listens. env names the engines (NEO4J_URI, TEMPORAL_ADDRESS, ...).
 */
/** A raw neo4j-driver on the bench's engine (the baseline the layer benches compare with). */
export function rawDriver(env: BenchEnv): Driver {
  const auth = env.endpoints.neo4jAuth ?? {
    user: env.service.deps.config.neo4j.user,
    password: env.service.deps.config.neo4j.password,
  };
  return neo4j.driver(env.endpoints.neo4jUri, neo4j.auth.basic(auth.user, auth.password));
}

/** Fills the key's project with `count` fact memories through the API, in batches of 100; the next serial. */
export async function fillMemories(url: string, key: string, count: number, serial = 0): Promise<number> {
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  for (let have = 0; have < count; have += 100) {
    const memories = Array.from({ length: 100 }, () => ({
      content: fillText((serial += 1)),
      kind: 'fact',
    }));
    const r = await fetch(`${url}/v1/memories`, { method: 'POST', headers, body: JSON.stringify({ memories }) });
    if (r.status !== 201) throw new Error(`create answered ${r.status}`);
  }
  return serial;
}

/**
 * Times each layer `samples` times, interleaved request by request so load falls on all alike (the first 20
 * rounds warm up), and prints one JSON line per layer with its p50 and p95.
 */
export async function measureLayers(
  layers: Record<string, (i: number) => Promise<unknown>>,
  samples: number,
): Promise<void> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(layers).map((k) => [k, []]));
  for (let i = 0; i < samples + 20; i += 1) {
    for (const [name, run] of Object.entries(layers)) {
      const [ms] = await timed(() => run(i));
      if (i >= 20) times[name]?.push(ms);
    }
  }
  for (const [layer, s] of Object.entries(times))
    console.log(
      JSON.stringify({ layer, p50_ms: +percentile(s, 50).toFixed(2), p95_ms: +percentile(s, 95).toFixed(2) }),
    );
}

/** A layer bench under way: its engine, a raw driver on it, a tenant filled with memories, and the sample count. */
export interface LayerBench {
  env: BenchEnv;
  driver: Driver;
  tenant: { projectId: string; organizationId: string; key: string };
  headers: Record<string, string>;
  samples: number;
  /** The serial the fill stopped at (fillText(serial + 1) is the next memory's text). */
  serial: number;
  stop(): Promise<void>;
}

/**
 * The common start of bench/searchLayers.ts and bench/writeLayers.ts: --memories (default 20000) and --samples,
 * an engine on GKS_BENCH_NEO4J_PORT (else `port`), a raw driver, and a tenant filled through the API.
 */
export async function startLayerBench(name: string, port: number, defaultSamples: number): Promise<LayerBench> {
  const { values } = parseArgs({
    options: {
      memories: { type: 'string', default: '20000' },
      samples: { type: 'string', default: String(defaultSamples) },
    },
  });
  const neo4jPort = Number(process.env.GKS_BENCH_NEO4J_PORT ?? port);
  const env = await startBench(name, { neo4j: neo4jPort, temporal: neo4jPort - 454 });
  const driver = rawDriver(env);
  const stop = async () => {
    await driver.close();
    await env.stop();
  };
  try {
    const tenant = await benchTenant(env.service);
    const headers = { Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' };
    const serial = await fillMemories(env.service.url, tenant.key, Number(values.memories));
    // The layers run in process, which the drains' pacing does not see as live traffic: the mention worker reading
    // the fill beside them would be measured with every layer (a trivial statement's p95 18 ms at 100k). Quiet first.
    const settled = await mentionsDrained(env.service.deps.graph);
    console.error(`the mention worker read the fill in ${settled.toFixed(0)} s; measuring`);
    return { env, driver, tenant, headers, samples: Number(values.samples), serial, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export function startApiProcess(env: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  return startProcess('src/apiMain.ts', env, (line) => /API (http:\/\/\S+)\/v1/.exec(line)?.[1]);
}

/** One more worker process (npm run worker) against the bench's engines; resolves once it polls. */
export async function startWorkerProcess(env: Record<string, string>): Promise<{ stop(): Promise<void> }> {
  return startProcess('src/workerMain.ts', env, (line) => (line.includes('worker polling') ? 'polling' : undefined));
}

/** A service process of this repository, resolved once a line of its output says it is ready (`ready` answers). */
function startProcess(
  script: string,
  env: Record<string, string>,
  ready: (line: string) => string | undefined,
): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: {
      ...process.env,
      PORT: '0',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const url = ready(chunk.toString());
      if (url) resolve({ url, stop });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** The pid of the process listening on a local TCP port (ss -ltnp), or null (an engine elsewhere, or no ss). */
export function listenerPid(port: number): number | null {
  const out = spawnSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const m = /pid=(\d+)/.exec(out.stdout ?? '');
  return m ? Number(m[1]) : null;
}

/** CPU time a process has used (user + system), in ms, from /proc; null when it cannot be read. */
export function processCpuMs(pid: number): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command; in clock ticks (100 a second).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/**
 * The CPU this process and another one (the engine, by pid) use while `work` runs, in ms. Where throughput is
 * bound by the machine's cores, CPU per request says what caps it: cores × 1000 / (its ms per request) a second.
 */
export async function cpuDuring<T>(
  enginePid: number | null,
  work: () => Promise<T>,
): Promise<{ result: T; nodeMs: number; engineMs: number | null }> {
  const node0 = process.cpuUsage();
  const engine0 = enginePid === null ? null : processCpuMs(enginePid);
  const result = await work();
  const node = process.cpuUsage(node0);
  const engine1 = enginePid === null ? null : processCpuMs(enginePid);
  return {
    result,
    nodeMs: (node.user + node.system) / 1000,
    engineMs: engine0 === null || engine1 === null ? null : engine1 - engine0,
  };
}

/** Prints one figure as a JSON line: its name, its value to 3 places, and what is said beside it. */
export function figure(name: string, value: number, extra: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ figure: name, value: Number(value.toFixed(3)), ...extra }));
}

/** A JSON client of the service with a key: each reply's status and its body, read loosely. */
export function apiCaller(url: string, key: string) {
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a bench reads reply bodies loosely
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> => {
    const r = await fetch(`${url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: r.status, json: await r.json() };
  };
}
