// A second API process, as ops run it in the multi-process mode (npm run api): its own process on
// its own port, against the test engines; the harness's in-process API is the first one.
import { spawn, type ChildProcess } from 'node:child_process';
import { harness, neo4jEnv } from './harness.js';

export interface ApiProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function startApiProcess(extraEnv: Record<string, string> = {}): Promise<ApiProcess> {
  const { endpoints, config } = harness();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/apiMain.ts'], {
    env: {
      ...process.env,
      ...neo4jEnv(),
      TEMPORAL_ADDRESS: endpoints.temporalAddress,
      TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
      ...(endpoints.embeddingsUrl ? { GKS_EMBEDDINGS_PORT: new URL(endpoints.embeddingsUrl).port } : {}),
      PORT: '0',
      LOG_LEVEL: 'silent',
      FETCH_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
      GKS_SECRETS_KEY: config.secrets.key?.toString('base64') ?? '',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`API process did not start: ${stderr}`)), 120_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      const url = /API (http:\/\/\S+)\/v1/.exec(chunk.toString())?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, child, stop });
      }
    });
    child.once('exit', (code) => reject(new Error(`API process exited with ${code}: ${stderr}`)));
  });
}
