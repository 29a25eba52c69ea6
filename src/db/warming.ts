// What Graph.warm sends to a restarted engine for each named statement, from the statement's last run in this
// process. Neo4j caches a plan by the statement's text and its parameters' types and sizes, so a write planned
// with no parameters (as it once was) is not the plan its next real run looks up: on a warm engine, deltas/create
// run after such an EXPLAIN took 770 ms (p50 of 5 rounds, the query caches cleared each time), as long as with no
// EXPLAIN at all (708 ms); after an EXPLAIN with its parameters, 236 ms (docs/operations.md).
import { cypher } from './cypher.js';

type Params = Record<string, unknown>;

/** A write's shape is taken at most this often: a batch of 100's costs 0.3-0.7 ms of CPU. */
const SHAPE_EVERY_MS = 1_000;

/**
 * Each named statement's last run: a read's parameters, or a write's parameter shape (paramShape), and when. The
 * process keeps one (lastRuns); a test makes its own.
 */
export class LastRuns {
  private readonly runs = new Map<string, { params: Params; read: boolean; at: number }>();

  /** Notes a named statement's run. A write keeps only its parameters' shape: no value it wrote. */
  note(name: string, params: Params, read: boolean, now = Date.now()): void {
    if (read) {
      this.runs.set(name, { params, read, at: now });
      return;
    }
    const last = this.runs.get(name);
    if (last && !last.read && now - last.at < SHAPE_EVERY_MS) return;
    this.runs.set(name, { params: paramShape(params) as Params, read, at: now });
  }

  /**
   * What Graph.warm sends for a named statement. A read last run in a read is run again with the parameters it
   * last had (in a read transaction: it changes nothing). Anything else is only planned (EXPLAIN: nothing runs),
   * with the shape of the parameters it last ran with.
   */
  warming(name: string): { text: string; params: Params; read: boolean } {
    const last = this.runs.get(name);
    if (last?.read) return { text: cypher(name), params: last.params, read: true };
    return { text: `EXPLAIN ${cypher(name)}`, params: last?.params ?? {}, read: false };
  }
}

/** This process's last runs: Graph notes every named statement it sends, and warms a restarted engine with them. */
export const lastRuns = new LastRuns();

/**
 * Parameters of the same types and sizes, holding none of the values: a string is as many x's as it is long, a list
 * each of its items' shapes, a map each of its entries' shapes; numbers, booleans, null and temporal values stay
 * as they are. Sizes count: the cache key also holds a size class of each string and list parameter (a shape with
 * empty strings and one item a list left deltas/create's next run to plan again: 504 ms, against 179 ms after an
 * EXPLAIN with the parameters themselves).
 */
export function paramShape(value: unknown): unknown {
  if (typeof value === 'string') return 'x'.repeat(value.length);
  if (Array.isArray(value)) return value.map(paramShape);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, paramShape(v)]));
  return value;
}
