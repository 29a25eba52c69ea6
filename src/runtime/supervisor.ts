// Keeps an engine child process (Neo4j, Temporal) that `npm start` or the test harness started
// running: an unexpected exit is logged, counted and followed by a restart with backoff; a crash
// loop (too many exits within a window) gives up with a clear message. stop() ends it for good.
import type { ChildProcess } from 'node:child_process';
import { engineRestarts, engineUp } from '../ops/metrics.js';

export interface EngineStatus {
  name: string;
  state: 'running' | 'restarting' | 'failed' | 'stopped';
  /** When the current state began (ISO 8601). */
  since: string;
  pid: number | null;
  restarts: number;
  last_exit: { code: number | null; signal: string | null; at: string } | null;
  /** Set when the supervisor gave up. */
  message: string | null;
}

export interface SupervisorOptions {
  /** Exits tolerated within windowMs before giving up. */
  maxRestarts: number;
  windowMs: number;
  /** Delay before restart n (1-based) is backoffMs * 2^(n-1), capped at maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_SUPERVISION: SupervisorOptions = {
  maxRestarts: 5,
  windowMs: 10 * 60_000,
  backoffMs: 1_000,
  maxBackoffMs: 30_000,
};

export class EngineSupervisor {
  private child: ChildProcess | undefined;
  private stopping = false;
  private timer: NodeJS.Timeout | undefined;
  private restarting: Promise<void> | undefined;
  private exits: number[] = [];
  private readonly current: EngineStatus;

  constructor(
    readonly name: string,
    /** Spawns the engine and resolves once it is ready (rejects if it is not). */
    private readonly launch: () => Promise<ChildProcess>,
    private readonly stopChild: (child: ChildProcess) => Promise<void>,
    private readonly log: (line: string) => void,
    private readonly options: SupervisorOptions = DEFAULT_SUPERVISION,
  ) {
    this.current = {
      name,
      state: 'stopped',
      since: new Date().toISOString(),
      pid: null,
      restarts: 0,
      last_exit: null,
      message: null,
    };
  }

  /** Launches the engine; after stop() it starts it afresh, supervised again. */
  async start(): Promise<void> {
    this.stopping = false;
    this.exits = [];
    this.watch(await this.launch());
  }

  status(): EngineStatus {
    return { ...this.current, last_exit: this.current.last_exit && { ...this.current.last_exit } };
  }

  /** No more restarts from now on (Ctrl+C: the children get the signal too and exit before stop()). */
  halt(): void {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
  }

  async stop(): Promise<void> {
    this.halt();
    await this.restarting; // a restart under way stops what it launched itself
    if (this.child) await this.stopChild(this.child);
    this.setState('stopped');
  }

  private setState(state: EngineStatus['state'], message: string | null = null): void {
    this.current.state = state;
    this.current.since = new Date().toISOString();
    this.current.message = message;
    engineUp.set({ engine: this.name }, state === 'running' ? 1 : 0);
  }

  private watch(child: ChildProcess): void {
    this.child = child;
    this.current.pid = child.pid ?? null;
    this.setState('running');
    child.once('exit', (code, signal) => {
      this.current.pid = null;
      this.current.last_exit = { code, signal, at: new Date().toISOString() };
      if (this.stopping) return;
      this.log(`${this.name} exited unexpectedly (${signal ? `signal ${signal}` : `code ${code}`})`);
      this.scheduleRestart();
    });
  }

  private scheduleRestart(): void {
    const now = Date.now();
    this.exits = [...this.exits.filter((t) => now - t < this.options.windowMs), now];
    if (this.exits.length > this.options.maxRestarts) {
      const message =
        `${this.name} failed ${this.exits.length} times within ${Math.round(this.options.windowMs / 60_000)} ` +
        'min; not restarting it again. See its log, fix the cause and restart the service.';
      this.setState('failed', message);
      this.log(message);
      return;
    }
    const delay = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** (this.exits.length - 1));
    this.setState('restarting');
    this.log(
      `restarting ${this.name} in ${(delay / 1000).toFixed(1)} s (attempt ${this.exits.length} of ` +
        `${this.options.maxRestarts})`,
    );
    this.timer = setTimeout(() => {
      this.restarting = this.restart().finally(() => (this.restarting = undefined));
    }, delay);
  }

  private async restart(): Promise<void> {
    if (this.stopping) return;
    try {
      const child = await this.launch();
      if (this.stopping) {
        await this.stopChild(child);
        return;
      }
      this.current.restarts += 1;
      engineRestarts.inc({ engine: this.name });
      this.watch(child);
      this.log(`${this.name} restarted (restart ${this.current.restarts})`);
    } catch (error) {
      this.log(`${this.name} did not start again: ${error instanceof Error ? error.message : String(error)}`);
      if (!this.stopping) this.scheduleRestart();
    }
  }
}
