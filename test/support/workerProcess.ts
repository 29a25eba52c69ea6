// A worker in its own process, as ops would run it (npm run worker), on its own task queue: the
// fault tests kill it mid-run and start another to show the work resumes and completes once.
import { spawn, type ChildProcess } from 'node:child_process';
import { harness, neo4jEnv } from './harness.js';

export function startWorkerProcess(taskQueue: string, extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
  const { endpoints, config } = harness();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/workerMain.ts'], {
    env: {
      ...process.env,
      ...neo4jEnv(),
      TEMPORAL_ADDRESS: endpoints.temporalAddress,
      TEMPORAL_TASK_QUEUE: taskQueue,
      LOG_LEVEL: 'silent',
      FETCH_ALLOW_PRIVATE: 'true',
      GKS_SECRETS_KEY: config.secrets.key?.toString('base64') ?? '',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('worker did not start')), 120_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('worker polling')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}
