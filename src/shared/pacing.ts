// Pacing for background drains (the embedding worker's backlog, and any drain like it): live requests come first.
// LiveTraffic counts the requests this process is serving now (fed by the HTTP layer around every route); a drain
// asks its DrainPacer for a turn before each batch. With no request in flight for `quietMs`, the turn is at once,
// so an idle process drains at its full rate; while requests are in flight the drain yields until they are done,
// but never longer than `maxYieldMs`, so a steady load slows a backlog and never stops it (issue 58: a drain
// taking its full rate beside live traffic cost that traffic a third of its throughput). Under a load that never
// pauses and writes (feeding the queue) the drain keeps a floor, `floorShare` of the time: after a batch that took
// B ms it yields at most B x (1 - share) / share before the next, so a cheap drain (the mention worker's) is not held
// to one batch per maxYieldMs, fewer memories than a steady load writes. A load of reads alone does not grow the
// queue, and the drain waits for its quiet moments as before (a 1M import's backlog read a quarter of the time
// beside one client's reads left a context compile at 46 ms p95, 22 ms p50). docs/performance.md, "Background
// drains", has the figures; a drain of its own uses it as the embedding worker does:
//
//   const pacer = new DrainPacer(liveTraffic);
//   while (await queueHasWork()) {
//     // at once when idle; else after a quiet moment, or once the drain has yielded its share
//     await pacer.paced(oneSmallBatch);  // small: a request that arrives meanwhile waits at most for this batch
//   }

import { setImmediate } from 'node:timers/promises';

/** The requests a process is serving now, since when none has been, and how many writing requests it has begun. */
export class LiveTraffic {
  private inFlight = 0;
  private quietSinceMs = performance.now();
  private readonly waiting = new Set<() => void>();
  private writesBegun = 0;

  /**
   * A request begins (`writes`: one that may write, and so feed the drains' queues): the returned function ends it
   * (once, whatever happens).
   */
  begin(writes = false): () => void {
    this.inFlight += 1;
    if (writes) this.writesBegun += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight -= 1;
      if (this.inFlight > 0) return;
      this.quietSinceMs = performance.now();
      for (const wake of this.waiting) wake();
      this.waiting.clear();
    };
  }

  /** Writing requests begun so far. */
  get writes(): number {
    return this.writesBegun;
  }

  /** Requests being served now. */
  get busy(): number {
    return this.inFlight;
  }

  /** How long no request has been in flight (0 while one is). */
  quietForMs(): number {
    return this.inFlight > 0 ? 0 : performance.now() - this.quietSinceMs;
  }

  /**
   * Resolves once no request has been in flight for `quietMs`, or at `deadline` (a performance.now() time), whichever
   * comes first.
   */
  async quiet(quietMs: number, deadline: number): Promise<void> {
    for (;;) {
      const quiet = this.quietForMs();
      const left = deadline - performance.now();
      if (quiet >= quietMs || left <= 0) return;
      if (this.inFlight > 0) await this.idle(left);
      else await sleep(Math.min(quietMs - quiet, left));
    }
  }

  /** Resolves once no request is in flight, or after `ms`, whichever comes first. */
  idle(ms: number): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiting.add(done);
    });
  }
}

/** This process's live traffic: the HTTP layer feeds it, background drains read it. */
export const liveTraffic = new LiveTraffic();

export interface PacingOptions {
  /** How long no request must have been in flight before a batch goes at once. */
  quietMs?: number;
  /** The longest a drain yields to live traffic before it runs a batch anyway (a steady load never stops it). */
  maxYieldMs?: number;
  /**
   * The share of the time a drain keeps under a load that never pauses (0-1): after a batch of B ms it yields at
   * most B x (1 - share) / share. 0: no floor, maxYieldMs alone bounds the yield.
   */
  floorShare?: number;
  /** The longest a batch's own work holds the event loop between two items while no request is in flight (ms). */
  sliceMs?: number;
}

/** Measured defaults (docs/performance.md, "Background drains"). */
export const DEFAULT_PACING: Required<PacingOptions> = { quietMs: 25, maxYieldMs: 2_000, floorShare: 0.25, sliceMs: 5 };

/** The longest yield before the next batch, for a last batch of `batchMs` (null: none timed yet). */
export function yieldBound(options: Required<PacingOptions>, batchMs: number | null): number {
  const { maxYieldMs, floorShare } = options;
  if (batchMs === null || floorShare <= 0) return maxYieldMs;
  if (floorShare >= 1) return 0;
  return Math.min(maxYieldMs, (batchMs * (1 - floorShare)) / floorShare);
}

/** Gives a drain its turns: at once while the process is idle, after live requests while it is not. */
export class DrainPacer {
  private readonly options: Required<PacingOptions>;
  /** Turns taken and the time yielded in them (ms), for the drain's own figures. */
  readonly taken = { turns: 0, yieldedMs: 0 };

  constructor(
    private readonly traffic: LiveTraffic,
    options: PacingOptions = {},
  ) {
    this.options = { ...DEFAULT_PACING, ...options };
    this.writesAtTurn = traffic.writes;
    this.writesBeforeTurn = traffic.writes;
  }

  /** How long the last batch run through paced() took (ms), which bounds the next yield; null before one. */
  private lastBatchMs: number | null = null;
  /** The traffic's writing requests when the last turn was taken. */
  private writesAtTurn: number;
  /** The writing requests when the turn before the last was taken: more since, and the load feeds the queue. */
  private writesBeforeTurn: number;

  /**
   * Runs one batch of the drain in its turn: waits for the turn (turn()), then times the batch, so the next turn
   * yields at most what keeps the drain its floor share. Answers the batch's result.
   */
  async paced<T>(batch: () => Promise<T>): Promise<T> {
    await this.turn();
    const began = performance.now();
    // One batch at a time per pacer (each drain builds its own): its state is this batch's alone.
    const state = { pausedMs: 0, sliceBegan: began };
    this.batch = state;
    try {
      return await batch();
    } finally {
      this.lastBatchMs = performance.now() - began - state.pausedMs;
      this.batch = null;
    }
  }

  /**
   * The batch running through paced(): how long it has given way (paused for requests, or given the event loop
   * back), and when its current slice of work began.
   */
  private batch: { pausedMs: number; sliceBegan: number } | null = null;

  /**
   * Between two items of a batch whose items are work on this process's own thread (the mention worker's text
   * reading, about 1 ms a memory): a request arriving mid-batch would otherwise wait for the whole batch on the event
   * loop (64 memories: ~50 ms, a context compile's p95 at 1M). While a request is in flight and no write came before
   * the batch's turn or since, the batch pauses until none is (at most maxYieldMs, as turn()): a load of reads does
   * not feed the queue. While writes come, the floor between batches is the drain's share (pausing within the batch too
   * halved the drain beside bench/drainPacing's load, 80 -> 38 memories/s, below what the load writes), so the batch
   * only gives the event loop back, as it does with no request in flight, once sliceMs of its work has run. The time
   * given way is not the batch's: the next turn's yield is bounded by the batch's own time (without it, the requests
   * served within a batch made it look three times as long and the drain beside that load read half as much).
   * Outside paced() it only gives the event loop back.
   */
  async between(): Promise<void> {
    const batch = this.batch;
    if (!batch) return setImmediate();
    const now = performance.now();
    // A request in flight, and no write since the turn before this batch's: a load of reads.
    const readsWait = () => this.traffic.busy > 0 && this.traffic.writes === this.writesBeforeTurn;
    if (readsWait()) {
      // In steps, so a write beginning meanwhile ends the pause.
      const end = now + this.options.maxYieldMs - batch.pausedMs;
      while (readsWait() && performance.now() < end)
        await this.traffic.idle(Math.min(PAUSE_STEP_MS, end - performance.now()));
      this.taken.yieldedMs += performance.now() - now;
    } else if (now - batch.sliceBegan >= this.options.sliceMs) await setImmediate();
    else return;
    // What ran meanwhile (requests) is not the batch's work: the floor after it counts only its own.
    batch.sliceBegan = performance.now();
    batch.pausedMs += batch.sliceBegan - now;
  }

  /**
   * Waits for the drain's next turn and answers how long it yielded (ms): 0 when no request has been in flight
   * for quietMs; else until none has, at most maxYieldMs, and, while writing requests come (they feed the queue),
   * at most what keeps the floor share after the last batch run through paced(). A load of reads alone does not
   * grow the queue: the drain waits for its quiet moments as before.
   */
  async turn(): Promise<number> {
    const began = performance.now();
    this.writesBeforeTurn = this.writesAtTurn;
    const fed = this.traffic.writes !== this.writesBeforeTurn;
    const deadline = began + (fed ? yieldBound(this.options, this.lastBatchMs) : this.options.maxYieldMs);
    await this.traffic.quiet(this.options.quietMs, deadline);
    const yielded = performance.now() - began;
    this.writesAtTurn = this.traffic.writes;
    this.taken.turns += 1;
    this.taken.yieldedMs += yielded;
    return yielded;
  }
}

/** A paused batch looks again at least this often whether a write has come (ms). */
const PAUSE_STEP_MS = 10;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(1, ms)));
