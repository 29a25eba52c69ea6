// Recall's statements planned again off the request path while the graph grows. Neo4j plans a cached statement
// again when a statistic its plan was made from (a label's count, a relationship type's) has moved by more than its
// divergence threshold since (0.75 for a young plan, falling to 0.1 over hours; and not within 10 s of the plan), and
// it does so in the request that meets it. On a young graph that is every few writes: a memory search after the
// first 4 memories of a fresh store took 1.1 s, and again after 16 (8-9 statements planned, 60-880 ms each), where a
// planned one takes 50 ms (.cache/probe/youngGraph.ts, docs/operations.md "Starting warm"). The start's rehearsal
// (warmReads) plans on the graph as it is then.
//
// So the keeper reads those statistics every few seconds (one statement, Neo4j's count store) and, once any has moved
// by READ_PLAN_DIVERGENCE or more since its last rehearsal and at least NEO4J_MIN_REPLAN_MS has passed, asks the
// read paths the rehearsal's questions again: Neo4j then plans the statements whose plans it finds stale for the
// rehearsal, not for a user. 0.1 is the lowest threshold Neo4j's own decays to, so whichever threshold a plan is at,
// the keeper rehearses again before the statistics have moved by another 10% past it. It rehearses in idle time
// only: each of its reads waits until the process has served no request for READ_PLAN_QUIET_MS (planning the 40-odd
// statements again takes a core for about 10 s). A bulk import or a steady load is left alone, and the keeper
// rehearses once it pauses; a rehearsal cut short by its budget is run again at the next round.
import type { Logger } from 'pino';
import type { GraphDeps } from '../shared/deps.js';
import type { EmbedderDeps } from '../embeddings/model.js';
import type { LiveTraffic } from '../shared/pacing.js';
import { warmReads, WARM_READS } from './warmReads.js';
import { readPlanRehearsals } from '../ops/metrics.js';

/** How far a statistic moves (|a - b| / max(a, b), as Neo4j measures it) before the keeper rehearses again. */
export const READ_PLAN_DIVERGENCE = 0.1;
/** Neo4j does not plan a statement again within this long of its last plan (dbms.cypher.min_replan_interval). */
export const NEO4J_MIN_REPLAN_MS = 10_000;
/** How often the keeper reads the statistics. */
export const READ_PLAN_CHECK_MS = 5_000;
/** How long the process must have served no request before each of the keeper's reads. */
export const READ_PLAN_QUIET_MS = 500;
/** The longest a rehearsal in idle moments runs before it is left for the next round. */
const IDLE_REHEARSAL_BUDGET_MS = 120_000;

/** The statistics the keeper watches: cypher/search/read_statistics.cypher's counts, by name. */
export type ReadStatistics = Record<string, number>;

/** The largest move of any statistic between two readings, as Neo4j measures one: |a - b| / max(a, b). */
export function divergence(before: ReadStatistics, now: ReadStatistics): number {
  let most = 0;
  for (const [name, count] of Object.entries(now)) {
    const was = before[name] ?? 0;
    const larger = Math.max(was, count);
    if (larger > 0) most = Math.max(most, Math.abs(count - was) / larger);
  }
  return most;
}

export interface ReadPlanOptions {
  checkMs?: number;
  divergence?: number;
  minGapMs?: number;
  quietMs?: number;
}

/**
 * What a round did: rehearsed; found the statistics where they were; waited for Neo4j's interval; found the process
 * busy (or its rehearsal was cut short by requests past its budget); or did nothing (the engine down, stopping).
 */
export type ReadPlanRound = 'rehearsed' | 'unchanged' | 'too_soon' | 'busy' | 'skipped';

/** Rehearses the read paths again whenever the graph's statistics have moved (see the file comment). */
export class ReadPlanKeeper {
  private readonly options: Required<ReadPlanOptions>;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<ReadPlanRound> | null = null;
  private stopped = false;
  /** The statistics at the last rehearsal (null: not read yet). */
  private seen: ReadStatistics | null = null;
  private rehearsedAt = 0;
  /** Rehearsals run since start (for the log and the tests). */
  rehearsals = 0;

  constructor(
    private readonly deps: GraphDeps & EmbedderDeps,
    private readonly logger: Logger,
    private readonly traffic: LiveTraffic,
    options: ReadPlanOptions = {},
  ) {
    this.options = {
      checkMs: options.checkMs ?? READ_PLAN_CHECK_MS,
      divergence: options.divergence ?? READ_PLAN_DIVERGENCE,
      minGapMs: options.minGapMs ?? NEO4J_MIN_REPLAN_MS,
      quietMs: options.quietMs ?? READ_PLAN_QUIET_MS,
    };
  }

  /**
   * Starts watching once the rehearsal given has run (the start's): the statistics then are what its plans were made
   * from.
   */
  start(rehearsed: Promise<unknown>): void {
    void rehearsed.then(async () => {
      if (this.stopped) return;
      await this.mark().catch(() => undefined); // an engine down now: the first round reads them
      if (this.stopped) return;
      this.timer = setInterval(() => void this.tick(), this.options.checkMs);
      this.timer.unref();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Takes the statistics now as those the current plans were made from (start, and a test's baseline). */
  async mark(): Promise<void> {
    this.seen = await this.read();
    this.rehearsedAt = Date.now();
  }

  /** One round, one at a time: rehearses when the statistics have moved (see the file comment). */
  tick(): Promise<ReadPlanRound> {
    this.running ??= this.round().finally(() => (this.running = null));
    return this.running;
  }

  private async round(): Promise<ReadPlanRound> {
    if (this.stopped || !this.deps.graph.health.isUp()) return 'skipped';
    try {
      const now = await this.read();
      if (this.seen !== null && divergence(this.seen, now) < this.options.divergence) return 'unchanged';
      if (Date.now() - this.rehearsedAt < this.options.minGapMs) return 'too_soon';
      if (this.traffic.quietForMs() < this.options.quietMs) return 'busy';
      const reads = await warmReads(this.deps, this.logger, {
        stopped: () => this.stopped,
        beforeRead: () => this.quiet(),
        budgetMs: IDLE_REHEARSAL_BUDGET_MS,
        reason: 'statistics moved',
      });
      if (this.stopped) return 'skipped';
      if (reads < WARM_READS) return 'busy';
      // The statistics read before the rehearsal are those it planned with (what the mention worker wrote meanwhile
      // counts toward the next).
      this.seen = now;
      this.rehearsedAt = Date.now();
      this.rehearsals += 1;
      readPlanRehearsals.inc();
      return 'rehearsed';
    } catch (error) {
      this.logger.warn({ err: error }, 'read plans: reading the statistics failed; the next round tries again');
      return 'skipped';
    }
  }

  /**
   * Resolves once the process has served no request for quietMs, or the keeper is stopping: waited for a second at a
   * time, so a load that never pauses does not hold up a stop.
   */
  private async quiet(): Promise<void> {
    while (!this.stopped && this.traffic.quietForMs() < this.options.quietMs)
      await this.traffic.quiet(this.options.quietMs, performance.now() + 1_000);
  }

  private async read(): Promise<ReadStatistics> {
    const row = await this.deps.graph.readOne<ReadStatistics>('search/read_statistics', {}, { purpose: 'read-plans' });
    return Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v)]));
  }
}
