// Starts the real services once for the whole test run: the local Neo4j and Temporal dev server on
// test ports with a fresh data folder (or NEO4J_URI / TEMPORAL_ADDRESS when set), then the API and
// worker in this process. Tests talk to the API over HTTP like any client.
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import neo4j, { type Driver } from 'neo4j-driver';
import pino from 'pino';
import { loggerOptions } from '../../src/config/logging.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { ensureServices, type Endpoints } from '../../src/runtime/services.js';
import { startService, type Service } from '../../src/server.js';

export interface Harness {
  config: Config;
  endpoints: Endpoints;
  service: Service;
  url: string;
  /** This run's engine data folder (its Neo4j password file is there). */
  dataDir: string;
}

let current: Harness | undefined;
let captured: string[] | null = null;
/** Log lines go nowhere unless a test captures them (with the service logger's level raised). */
const logSink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    captured?.push(chunk.toString());
    done();
  },
});

/** Captures every log line the service writes (at debug level) until the returned stop is called. */
export function captureLogs(): { lines: string[]; stop(): void } {
  const logger = harness().service.deps.logger;
  const previous = logger.level;
  const lines: string[] = [];
  captured = lines;
  logger.level = 'debug';
  return {
    lines,
    stop() {
      logger.level = previous;
      captured = null;
    },
  };
}

export function harness(): Harness {
  if (!current) throw new Error('test harness not started (test/support/hooks.ts)');
  return current;
}

/**
 * After a test killed Neo4j: waits until the graph answers again and then for the restarted engine's
 * first seconds (cold plans and page cache), so the tests after it meet a steady engine.
 */
export async function graphSteady(timeoutMs = 600_000): Promise<void> {
  const health = harness().service.deps.graph.health;
  const deadline = Date.now() + timeoutMs;
  while (!health.isUp()) {
    if (Date.now() > deadline) throw new Error(`the graph was not steady within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
  await harness().service.deps.graph.read((tx) => tx.runText('MATCH (n:Knowledge) RETURN count(n) AS n'));
  await new Promise((r) => setTimeout(r, 3_000));
}

export async function startHarness(): Promise<Harness> {
  const env = { ...process.env };
  env.LOG_LEVEL ??= 'silent';
  env.FETCH_ALLOW_PRIVATE ??= 'true';
  env.RATE_LIMIT_PER_SECOND ??= '100000';
  env.RATE_LIMIT_BURST ??= '100000';
  // The suite sends many bad keys from 127.0.0.1 on purpose; the failure limit's own test uses another address.
  env.RATE_LIMIT_AUTH_FAILURES_BURST ??= '100000';
  env.RATE_LIMIT_AUTH_FAILURES_PER_MINUTE ??= '6000000';
  env.GKS_SECRETS_KEY ??= Buffer.alloc(32, 7).toString('base64'); // a fixed test key for connection secrets
  // Test graphs are small, and several suites may run side by side: a fixed, small engine.
  env.GKS_NEO4J_HEAP_MB ??= '1024';
  env.GKS_NEO4J_PAGECACHE_MB ??= '512';
  const config = loadConfig(env);
  const neo4jPort = Number(env.GKS_TEST_NEO4J_PORT ?? 17687);
  const temporalPort = Number(env.GKS_TEST_TEMPORAL_PORT ?? 17233);
  // One folder per port pair, so parallel runs on other ports never share engine data.
  const dataDir = path.join(config.dataDir, neo4jPort === 17687 ? 'test' : `test-${neo4jPort}`);
  if (!config.neo4j.uri || !config.temporal.address) fs.rmSync(dataDir, { recursive: true, force: true });
  const began = Date.now();
  const log = (line: string) => process.stdout.write(`  [services] ${line.trim()}\n`);
  const endpoints = await ensureServices(
    config,
    {
      dataDir,
      neo4jPort,
      temporalPort,
      temporalUiPort: null,
      // Derived from the Neo4j test port, so parallel runs on other ports never collide.
      embeddingsPort: neo4jPort + 5,
    },
    log,
  );
  // A service that fails to start (e.g. a refused embedding dimension) must not leave the engines running.
  const service = await startService(config, endpoints, {
    worker: true,
    // The suite's tests of plans clear Neo4j's plan cache and read what a search plans then; a rehearsal of the keeper
    // beside them would plan it first. The keeper's own tests (test/search/warmReads.test.ts) run one of their own.
    readPlans: false,
    port: 0,
    logger: pino(loggerOptions(config.logLevel), logSink),
  }).catch(async (error: unknown) => {
    await endpoints.stop();
    throw error;
  });
  // The service answers once its preflight checks are planned and its review rehearsed (src/server.ts).
  log(`API ${service.url} ready in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  // Its read paths are rehearsed beside the first requests: the suite's tests begin once that is done.
  const reads = await service.readsWarmed;
  log(`read paths warmed (${reads} reads) after ${((Date.now() - began) / 1000).toFixed(1)} s`);
  current = { config, endpoints, service, url: service.url, dataDir };
  return current;
}

export async function stopHarness(): Promise<void> {
  if (!current) return;
  await current.service.close();
  await current.endpoints.stop();
  current = undefined;
}

/** What a child process (gks, a worker) needs to reach the test graph: its URI and login. */
export function neo4jEnv(): { NEO4J_URI: string; NEO4J_USER?: string; NEO4J_PASSWORD?: string } {
  const { endpoints } = harness();
  return {
    NEO4J_URI: endpoints.neo4jUri,
    ...(endpoints.neo4jAuth
      ? { NEO4J_USER: endpoints.neo4jAuth.user, NEO4J_PASSWORD: endpoints.neo4jAuth.password }
      : {}),
  };
}

/**
 * A driver of the suite's own, on the test graph, opened before the describe's tests and closed after them:
 * for tests that hold a raw transaction open beside the service's (to order concurrent writes).
 */
export function useRawDriver(): () => Driver {
  let driver: Driver | undefined;
  before(() => {
    const { endpoints } = harness();
    const login = endpoints.neo4jAuth;
    driver = neo4j.driver(endpoints.neo4jUri, login ? neo4j.auth.basic(login.user, login.password) : undefined);
  });
  after(async () => {
    await driver?.close();
  });
  return () => {
    if (!driver) throw new Error("useRawDriver: the driver opens in the describe's before hook");
    return driver;
  };
}
