// Runs the Temporal worker for the loops task queue: bundles workflows/ and registers the
// activities built from real dependencies.
import path from 'node:path';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker';
import { REPO_ROOT } from '../runtime/provision.js';
import { createActivities, type ActivityDeps } from './activities/index.js';
import type { TemporalSettings } from './connection.js';

let bundle: Promise<WorkflowBundle> | undefined;

/** Bundles workflows once per process (webpack takes a few seconds). */
export function workflowBundle(): Promise<WorkflowBundle> {
  bundle ??= bundleWorkflowCode({ workflowsPath: path.join(REPO_ROOT, 'workflows/index.ts'), logger: quietLogger });
  return bundle;
}

const noop = () => undefined;
const quietLogger = { trace: noop, debug: noop, info: noop, warn: console.warn, error: console.error, log: noop };

export interface RunningWorker {
  worker: Worker;
  done: Promise<void>;
  stop(): Promise<void>;
}

let runtimeInstalled = false;

/** The SDK logs through its own logger; keep it to warnings so the service's JSON logs stay readable. */
function installRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // Already installed by an earlier worker in this process.
  }
}

export async function startWorker(settings: TemporalSettings, deps: ActivityDeps): Promise<RunningWorker> {
  installRuntime();
  const connection = await NativeConnection.connect({ address: settings.address });
  const worker = await Worker.create({
    connection,
    namespace: settings.namespace,
    taskQueue: settings.taskQueue,
    workflowBundle: await workflowBundle(),
    activities: createActivities(deps),
    shutdownGraceTime: '10 seconds',
  });
  const done = worker.run().finally(() => connection.close());
  return {
    worker,
    done,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}
