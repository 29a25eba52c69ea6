// Starts and stops the local Neo4j launcher and temporal dev server as child processes, waiting for
// readiness and stopping them cleanly (SIGTERM, then SIGKILL after a grace period). Each runs under
// an EngineSupervisor, which restarts it with backoff if it dies.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Neo4jInstall, Progress } from './provision.js';
import { EngineSupervisor } from './supervisor.js';

export interface RunningService {
  name: string;
  /** Present for engines this process started and watches. */
  supervisor?: EngineSupervisor;
  stop(): Promise<void>;
}

export function portOpen(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Stops a child: SIGTERM, then SIGKILL after graceMs; resolves when it has exited. */
export function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function openLog(file: string): number {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return fs.openSync(file, 'a');
}

interface Neo4jOptions {
  dataDir: string;
  port: number;
  logFile: string;
  /** Heap, page cache, transaction timeout and vector merge factor (config neo4j.local: sized from the machine). */
  memory: { heapMb: number; pageCacheMb: number; txTimeoutSeconds: number; vectorMergeFactor: number };
  /** The neo4j user's password (authentication on); null runs the engine without authentication. */
  password: string | null;
}

/** Spawns the launcher and resolves once it prints its ready line; kills what it spawned if it is not ready. */
function launchNeo4j(install: Neo4jInstall, opts: Neo4jOptions): Promise<ChildProcess> {
  const log = openLog(opts.logFile);
  const child = spawn(
    'java',
    [
      `-Xms${Math.min(256, opts.memory.heapMb)}m`,
      `-Xmx${opts.memory.heapMb}m`,
      '--add-opens=java.base/java.nio=ALL-UNNAMED',
      '--add-opens=java.base/sun.nio.ch=ALL-UNNAMED',
      '--add-opens=java.base/java.io=ALL-UNNAMED',
      '--add-opens=java.base/java.util.concurrent=ALL-UNNAMED',
      '--add-opens=java.base/java.lang=ALL-UNNAMED',
      '-cp',
      `${install.classesDir}${path.delimiter}${path.join(install.libDir, '*')}`,
      'Launcher',
    ],
    {
      env: {
        ...process.env,
        GKS_NEO4J_DATA: opts.dataDir,
        GKS_NEO4J_BOLT_PORT: String(opts.port),
        GKS_NEO4J_PAGECACHE_MB: String(opts.memory.pageCacheMb),
        GKS_NEO4J_TX_TIMEOUT_S: String(opts.memory.txTimeoutSeconds),
        GKS_NEO4J_VECTOR_MERGE_FACTOR: String(opts.memory.vectorMergeFactor),
        GKS_NEO4J_PASSWORD: opts.password ?? '',
      },
      stdio: ['ignore', 'pipe', log],
    },
  );
  child.once('close', () => fs.closeSync(log)); // after stdout is drained, not at 'exit'
  return new Promise<ChildProcess>((resolve, reject) => {
    let buffer = '';
    let ready = false;
    // Generous: a restart recovers the store, and on a loaded machine even a clean start takes minutes.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Neo4j did not become ready within 600 s; see ${opts.logFile}`));
    }, 600_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      fs.writeSync(log, chunk);
      if (ready) return;
      buffer += chunk.toString();
      if (buffer.includes('neo4j-launcher: ready')) {
        ready = true;
        buffer = '';
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`Neo4j exited during start (code ${code}); see ${opts.logFile}`));
    });
  });
}

/**
 * Refuses a port something else already holds (naming what to set instead), then starts the engine
 * under a supervisor that restarts it with backoff. Shared by Neo4j, Temporal and the embedding engine.
 */
export async function superviseOnFreePort(
  name: string,
  port: number,
  what: string,
  instead: string,
  launch: () => Promise<ChildProcess>,
  stop: (child: ChildProcess) => Promise<void>,
  progress: Progress,
): Promise<EngineSupervisor> {
  if (await portOpen(port)) {
    throw new Error(`Port ${port} is already in use, so ${what} cannot start. Stop what holds it, set ${instead}.`);
  }
  const supervisor = new EngineSupervisor(name, launch, stop, (line) => progress(`  [supervisor] ${line}`));
  await supervisor.start();
  return supervisor;
}

export async function startNeo4j(
  install: Neo4jInstall,
  opts: Neo4jOptions,
  progress: Progress,
): Promise<RunningService> {
  const started = Date.now();
  const supervisor = await superviseOnFreePort(
    'neo4j',
    opts.port,
    'the local Neo4j',
    'GKS_NEO4J_BOLT_PORT, or point NEO4J_URI at a running Neo4j',
    () => launchNeo4j(install, opts),
    (child) => stopChild(child, 30_000),
    progress,
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  progress(
    `  ✓ Neo4j 5.26 ready on bolt://127.0.0.1:${opts.port} in ${seconds} s ` +
      `(heap ${opts.memory.heapMb} MB, page cache ${opts.memory.pageCacheMb} MB)`,
  );
  return { name: 'neo4j', supervisor, stop: () => supervisor.stop() };
}

export const SEARCH_ATTRIBUTES = [
  'ProjectId=Keyword',
  'OrganizationId=Keyword',
  'LoopKind=Keyword',
  'LoopStatus=Keyword',
  'ConnectionId=Keyword',
  'ConnectionKind=Keyword',
];

interface TemporalOptions {
  dbFile: string;
  port: number;
  uiPort: number | null;
  namespace: string;
  logFile: string;
}

/** Spawns the dev server and resolves once its port accepts connections; kills what it spawned if it does not. */
async function launchTemporal(binary: string, opts: TemporalOptions): Promise<ChildProcess> {
  fs.mkdirSync(path.dirname(opts.dbFile), { recursive: true });
  const log = openLog(opts.logFile);
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--db-filename',
    opts.dbFile,
    '--namespace',
    opts.namespace,
    '--log-level',
    'warn',
    ...SEARCH_ATTRIBUTES.flatMap((a) => ['--search-attribute', a]),
    ...(opts.uiPort === null ? ['--headless'] : ['--ui-port', String(opts.uiPort)]),
  ];
  const child = spawn(binary, args, { stdio: ['ignore', log, log] });
  fs.closeSync(log);
  const deadline = Date.now() + 120_000;
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? 1));
  while (!(await portOpen(opts.port))) {
    if (exited !== null)
      throw new Error(`Temporal dev server exited during start (code ${exited}); see ${opts.logFile}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Temporal did not open port ${opts.port} within 120 s; see ${opts.logFile}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return child;
}

export async function startTemporal(
  binary: string,
  opts: TemporalOptions,
  progress: Progress,
): Promise<RunningService> {
  const started = Date.now();
  const supervisor = await superviseOnFreePort(
    'temporal',
    opts.port,
    'the Temporal dev server',
    'GKS_TEMPORAL_PORT, or point TEMPORAL_ADDRESS at a running Temporal',
    () => launchTemporal(binary, opts),
    (child) => stopChild(child, 20_000),
    progress,
  );
  progress(
    `  ✓ Temporal dev server ready on 127.0.0.1:${opts.port} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return { name: 'temporal', supervisor, stop: () => supervisor.stop() };
}
