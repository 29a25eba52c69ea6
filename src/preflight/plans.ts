// The preflight checks are the largest statements the service runs: planning one costs 0.1–1.8 s on
// the 2-core machine, all seventeen 7–10 s (20 s while the engine is cold). Neo4j plans a cached
// statement again when the statistics it was planned with have moved enough, and it does so inside
// the transaction that runs it. On a young graph that is every few minutes: an audit waited 7–10 s,
// and the apply guard held its write transaction, and the locks it had taken, as long.
//
// So requests run the checks of a plan set (checks.ts, inPlanSet): Neo4j's `replan=skip`, and a
// marker that makes each set's statements their own entries in Neo4j's plan cache. The sets follow
// the graph's size (all nodes plus relationships): set 0 below PLAN_SIZE_FLOOR, then one set per
// doubling. The keeper below measures the size every minute; when it enters another set, the keeper
// plans that set's checks first (their first run, with a delta id that matches nothing) and only then
// points requests at it. It also plans the current set at start and after Neo4j comes back (a
// restarted engine has no plans). A request never plans a check unless Neo4j has lost the plan since
// (evicted, restarted), and then it plans it once, as it always did. At start and after a reconnect the keeper
// also rehearses the review's own statements (src/deltas/rehearse.ts), and the service listens only once its
// start round is done (src/server.ts): the first audit or apply after start meets no cold plan. The apply's guard
// runs on the audit's plans: its locks leave its transaction without changes (cypher/deltas/lock.cypher).
import type { Logger } from 'pino';
import type { Graph } from '../db/graph.js';
import { NO_MATCH_ID } from '../db/warming.js';
import { rehearseReview } from '../deltas/rehearse.js';
import type { EmbeddingModel } from '../embeddings/model.js';
import { planMeaning } from './meaningReads.js';
import { preflightPlanEvents } from '../ops/metrics.js';
import { currentPlanSet, inPlanSet, preflightCheckFiles, runChecks, usePlanSet } from './checks.js';

/** Graphs smaller than this (nodes plus relationships) share plan set 0. */
export const PLAN_SIZE_FLOOR = 10_000;
/** How often the keeper measures the graph. */
export const PLAN_CHECK_INTERVAL_MS = 60_000;

export type PlanReason = 'start' | 'reconnect' | 'resize';

/** The plan set of a graph of `size`: 0 below the floor, then 1 up to twice the floor, 2 up to four times... */
export function planSetFor(size: number): number {
  return size < PLAN_SIZE_FLOOR ? 0 : Math.floor(Math.log2(size / PLAN_SIZE_FLOOR)) + 1;
}

/** The smallest graph size of a plan set (inverse of planSetFor). */
export function planSetStart(set: number): number {
  return set === 0 ? 0 : PLAN_SIZE_FLOOR * 2 ** (set - 1);
}

/**
 * Plans every check of plan set `set` by running it for a delta that does not exist (cheap, and it
 * builds the whole executable plan), each in its own read transaction. A plan already cached is kept.
 */
export async function planChecks(graph: Graph, set: number): Promise<void> {
  const now = new Date().toISOString(); // the same form as requests' $now
  for (const check of preflightCheckFiles()) {
    await graph.read((tx) => runChecks(tx, NO_MATCH_ID, NO_MATCH_ID, now, [inPlanSet(check, set)]), {
      purpose: 'preflight:plan',
    });
  }
}

/** Keeps requests on plans made for the graph's size, planned off the request path (see the file comment). */
export class PreflightPlanKeeper {
  /** Set at start and when Neo4j comes back. */
  private pending: PlanReason | null = 'start';
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<PlanReason | null> | null = null;

  constructor(
    private readonly graph: Graph,
    private readonly logger: Logger,
    private readonly intervalMs = PLAN_CHECK_INTERVAL_MS,
    /** The embedding model, when the audit compares by meaning: its statements are planned at start too. */
    private readonly model: EmbeddingModel | null = null,
  ) {
    graph.health.onChange((up) => {
      if (!up) return;
      this.pending = 'reconnect';
      if (this.timer) void this.tick(); // started: plan now rather than at the next measure
    });
  }

  start(): void {
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** The plan set requests use now (null: none planned yet; requests then run the files as they are). */
  current(): number | null {
    return currentPlanSet();
  }

  /** One round: plans a set if one is due and says why, or null. One round at a time. */
  tick(): Promise<PlanReason | null> {
    this.running ??= this.round().finally(() => (this.running = null));
    return this.running;
  }

  private async round(): Promise<PlanReason | null> {
    if (!this.graph.health.isUp()) return null;
    const pending = this.pending;
    this.pending = null; // a reconnect during this round asks for another
    try {
      const size = Number((await this.graph.readOne<{ size: number }>('preflight/plans/graph_size'))?.size ?? 0);
      const set = planSetFor(size);
      const reason = pending ?? (set !== currentPlanSet() ? 'resize' : null);
      if (reason === null) return null;
      const started = Date.now();
      await planChecks(this.graph, set);
      usePlanSet(set);
      // A started or restarted engine has no plans of the audit's check by meaning or the review's own statements.
      if (reason !== 'resize') {
        if (this.model) await planMeaning(this.graph, this.model);
        await rehearseReview(this.graph);
      }
      preflightPlanEvents.inc({ reason });
      this.logger.info(
        { reason, graph_size: size, plan_set: set, ms: Date.now() - started },
        'preflight: checks planned',
      );
      return reason;
    } catch (error) {
      this.pending ??= pending;
      this.logger.warn({ err: error }, 'preflight: planning the checks failed; the next round tries again');
      return null;
    }
  }
}
