// Runs the Temporal worker for the loops task queue: bundles workflows/ and registers the
// activities built from real dependencies.
import path from 'node:path';
import {
  DefaultLogger,
  type LogEntry,
  NativeConnection,
  Runtime,
  Worker,
  bundleWorkflowCode,
  type WorkflowBundle,
} from '@temporalio/worker';
import type { Logger as Pino } from 'pino';
import { REPO_ROOT } from '../runtime/provision.js';
import { createActivities, type ActivityDeps } from './activities/index.js';
import { bookmarksOf, connectionSecurity, type TemporalSettings } from './connection.js';
import { workerRestarts } from '../ops/metrics.js';
import type { RunningWorker, WorkerStatus } from '../runtime/parts.js';

export type { RunningWorker, WorkerStatus };

let bundle: Promise<WorkflowBundle> | undefined;

/** Bundles workflows once per process (webpack takes a few seconds). */
export function workflowBundle(): Promise<WorkflowBundle> {
  bundle ??= bundleWorkflowCode({
    workflowsPath: path.join(REPO_ROOT, 'workflows/index.ts'),
    // The bookmarks a workflow was started with go with its activities (workflows/interceptors.ts).
    workflowInterceptorModules: [path.join(REPO_ROOT, 'workflows/interceptors.ts')],
    logger: quietLogger,
  });
  return bundle;
}

const noop = () => undefined;
const quietLogger = { trace: noop, debug: noop, info: noop, warn: console.warn, error: console.error, log: noop };

let runtimeInstalled = false;

/**
 * The SDK's own lines (an activity failed, a poll error), warnings and errors only, written through the
 * service's logger when it has one: one JSON line each, the SDK's metadata (workflow, activity, attempt) under
 * `temporal` and its error as `err` (pino's error serializer), instead of the SDK's multi-line text on stderr.
 * Installed once per process.
 */
function installRuntime(logger: Pino | undefined): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const write = logger
    ? ({ level, message, meta }: LogEntry) => {
        const { error, ...temporal } = meta ?? {};
        logger[level === 'ERROR' ? 'error' : 'warn'](
          { temporal, ...(error === undefined ? {} : { err: error }) },
          message,
        );
      }
    : undefined;
  try {
    Runtime.install({ logger: new DefaultLogger('WARN', write) });
  } catch {
    // Already installed by an earlier worker in this process.
  }
}

async function createWorker(
  settings: TemporalSettings,
  deps: ActivityDeps,
): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({
    address: settings.address,
    ...connectionSecurity(settings.security),
  });
  try {
    const worker = await Worker.create({
      connection,
      namespace: settings.namespace,
      taskQueue: settings.taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities(deps),
      // Each activity begins once the graph holds what the request that started its workflow wrote.
      interceptors: {
        activity: [
          () => ({
            inbound: {
              execute: async (input, next) => {
                const given = bookmarksOf(input.headers);
                return given.length === 0 ? next(input) : (await deps.graph.causally(given, () => next(input))).value;
              },
            },
          }),
        ],
      },
      shutdownGraceTime: '10 seconds',
    });
    return { worker, connection };
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw error;
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Starts the worker (failing if Temporal is unreachable now) and keeps it running: should it stop or
 * fail later (Temporal gone for long, a fatal poll error), it is created again with backoff (1 s
 * doubling to 30 s, without limit) until stop() is called.
 */
export async function startWorker(
  settings: TemporalSettings,
  deps: ActivityDeps,
  log: (line: string) => void = () => undefined,
): Promise<RunningWorker> {
  installRuntime(deps.logger);
  let current: { worker: Worker; connection: NativeConnection } | undefined = await createWorker(settings, deps);
  let stopping = false;
  let wake: (() => void) | undefined;
  const status: WorkerStatus = { state: 'running', since: new Date().toISOString(), restarts: 0, last_error: null };
  const setState = (state: WorkerStatus['state']) => {
    status.state = state;
    status.since = new Date().toISOString();
  };
  const supervise = async () => {
    for (let failures = 0; ;) {
      if (stopping) return; // stop() came while a worker was being created: it is never run
      if (current) {
        try {
          await current.worker.run();
          if (!stopping) status.last_error = 'worker stopped on its own';
        } catch (error) {
          status.last_error = message(error);
        } finally {
          await current.connection.close().catch(() => undefined);
          current = undefined;
        }
      }
      if (stopping) return;
      if (status.state !== 'reconnecting') {
        setState('reconnecting');
        log(`Temporal worker stopped (${status.last_error}); creating it again with backoff`);
      }
      failures += 1;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(30_000, 1_000 * 2 ** (failures - 1)));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopping) return;
      try {
        current = await createWorker(settings, deps);
        status.restarts += 1;
        workerRestarts.inc();
        failures = 0;
        setState('running');
        log(`Temporal worker polling again (restart ${status.restarts})`);
      } catch (error) {
        status.last_error = message(error);
      }
    }
  };
  const done = supervise().finally(() => setState('stopped'));
  return {
    done,
    status: () => ({ ...status }),
    async stop() {
      stopping = true;
      wake?.();
      if (current?.worker.getState() === 'RUNNING') current.worker.shutdown();
      await done;
    },
  };
}
