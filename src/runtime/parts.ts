// What this process runs besides the API (the engines it supervises and its Temporal worker), as
// ops status sees it. A leaf: the worker implements RunningWorker, so naming it here imports no worker.
import type { EmbeddingsRuntime } from '../embeddings/status.js';
import type { EngineSupervisor } from './supervisor.js';

export interface WorkerStatus {
  state: 'running' | 'reconnecting' | 'stopped';
  /** When the current state began (ISO 8601). */
  since: string;
  /** Times the worker was created again after it stopped or failed. */
  restarts: number;
  last_error: string | null;
}

export interface RunningWorker {
  /** Settles when the worker has been stopped with stop(). */
  done: Promise<void>;
  status(): WorkerStatus;
  stop(): Promise<void>;
}

/** What this process runs besides the API: the engines it supervises and its worker, once started. */
export interface RuntimeParts {
  engines: EngineSupervisor[];
  worker?: RunningWorker;
  /** Recall by meaning: the embedder, its worker and the model each vector index serves. */
  embeddings?: EmbeddingsRuntime;
  /** Recall's hops: the worker reading the terms memories mention (src/memories/mentionWorker.ts), if it runs here. */
  mentions?: { start(): void; stop(): Promise<void> } | null;
  /** The Temporal Web UI of the engines this process started (null: an external Temporal, or headless). */
  temporalUiUrl?: string | null;
}

export interface RuntimeDeps {
  runtime: RuntimeParts;
}
