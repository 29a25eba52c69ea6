// What Graph.warm sends to a restarted engine for each named statement, from the statement's last run in this
// process. Neo4j caches a plan by the statement's text and its parameters' types and sizes, so a write planned
// with no parameters (as it once was) is not the plan its next real run looks up: on a warm engine, deltas/create
// run after such an EXPLAIN took 770 ms (p50 of 5 rounds, the query caches cleared each time), as long as with no
// EXPLAIN at all (708 ms); after an EXPLAIN with its parameters, 236 ms (docs/operations.md).
import crypto from 'node:crypto';
import { cypher } from './cypher.js';

type Params = Record<string, unknown>;

/** A write's shape is taken at most this often (for each size class): a batch of 100's costs 0.3-0.7 ms of CPU. */
const SHAPE_EVERY_MS = 1_000;
/** How many size classes of one write are kept (most recent first), each warmed. */
const SIZE_CLASSES = 3;

/**
 * How a write is rehearsed rather than only planned: run for real in a transaction that is rolled back, with its
 * last run's parameter shape where `keep` names the values that must be real for it to do its work (the project it
 * writes into, a timestamp it parses, the labels it creates) and `fresh` the values it must not repeat (ids under a
 * uniqueness constraint, a new random UUID each). A path is parameter names joined by dots, `*` for each item of a
 * list: `nodes.*.id`. Planning alone leaves the first real run its first execution on a cold engine: after a Neo4j
 * kill, the first writes of 3 memories (4 writers) took 0.89-1.95 s in 8 drills when deltas/create was only planned,
 * 0.56-0.86 s in 5 once rehearsed (docs/operations.md).
 */
export interface Rehearsal {
  keep: string[];
  fresh: string[];
}

/** What Graph.warm sends for a named statement; `rollback`: run it in a transaction it then rolls back. */
export interface Warming {
  text: string;
  params: Params;
  read: boolean;
  rollback: boolean;
}

interface Run {
  params: Params;
  read: boolean;
  at: number;
  /** The parameters' size class (sizeClass): a write keeps one run of each of its last SIZE_CLASSES. */
  size: string;
}

/**
 * Each named statement's last runs: a read's parameters, or a write's parameter shapes (paramShape), one for each of
 * its last size classes, and when. The process keeps one (lastRuns); a test makes its own.
 */
export class LastRuns {
  private readonly runs = new Map<string, Run[]>();
  private readonly rehearsals = new Map<string, Rehearsal>();

  /** Declares that the write `name` is warmed by a rehearsal (see Rehearsal), not only planned. */
  rehearse(name: string, rehearsal: Rehearsal): void {
    this.rehearsals.set(name, rehearsal);
  }

  /**
   * Notes a named statement's run. A write keeps only its parameters' shape, and of a rehearsed write the values its
   * rehearsal keeps (identifiers and timestamps): nothing it wrote.
   */
  note(name: string, params: Params, read: boolean, now = Date.now()): void {
    if (read) {
      this.runs.set(name, [{ params, read, at: now, size: '' }]);
      return;
    }
    const size = sizeClass(params);
    const others = (this.runs.get(name) ?? []).filter((r) => !r.read);
    const last = others.find((r) => r.size === size);
    if (last && now - last.at < SHAPE_EVERY_MS) return;
    const shape = paramShape(params) as Params;
    for (const path of this.rehearsals.get(name)?.keep ?? []) keepAt(shape, params, path.split('.'));
    const kept = others.filter((r) => r !== last).slice(0, SIZE_CLASSES - 1);
    this.runs.set(name, [{ params: shape, read, at: now, size }, ...kept]);
  }

  /**
   * What Graph.warm sends for a named statement, one for each size class it last ran with, the most recent first. A
   * read last run in a read is run again with the parameters it last had (in a read transaction: it changes nothing).
   * A rehearsed write that has run is run with its kept shape and fresh ids, then rolled back. Anything else is only
   * planned (EXPLAIN: nothing runs), with the shape of the parameters it last ran with (none if it never ran here).
   * Neo4j plans each size class apart: after a run of 2 rows, a run of 1 row or 20 took 443 and 480 ms, of 3 or 9
   * rows 35-37 ms; a string of 40 characters after one of 10, 494 ms (.cache/probe/sizeClass.ts, warm engine).
   */
  warmings(name: string): Warming[] {
    const runs = this.runs.get(name) ?? [];
    const [first] = runs;
    if (first?.read) return [{ text: cypher(name), params: first.params, read: true, rollback: false }];
    if (!first) return [{ text: `EXPLAIN ${cypher(name)}`, params: {}, read: false, rollback: false }];
    const rehearsal = this.rehearsals.get(name);
    return runs.map((run) => {
      if (!rehearsal) return { text: `EXPLAIN ${cypher(name)}`, params: run.params, read: false, rollback: false };
      const params = copyPlain(run.params) as Params;
      for (const path of rehearsal.fresh) freshAt(params, path.split('.'));
      return { text: cypher(name), params, read: false, rollback: true };
    });
  }
}

/**
 * The size class of a statement's parameters, as Neo4j's plan cache keys them: for each string or list parameter,
 * the order of magnitude of its length (1; 2-10; 11-100; ...). Measured: lists of 3 and 9 rows share a plan with one
 * of 2, lists of 1 and 20 do not; strings of 5 and 10 characters share one, of 40 not (.cache/probe/sizeClass.ts).
 */
export function sizeClass(params: Params): string {
  const classes: string[] = [];
  for (const [key, value] of Object.entries(params))
    if (typeof value === 'string' || Array.isArray(value))
      classes.push(`${key}:${value.length <= 1 ? 0 : Math.ceil(Math.log10(value.length))}`);
  return classes.join(',');
}

const isPlainMap = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;

/**
 * Where `path` leads in `value`: the map and key of each place, item by item under `*` (a key the map lacks
 * included). The shape of a value has the same places in the same order as the value.
 */
function placesAt(value: unknown, path: string[]): { map: Record<string, unknown>; key: string }[] {
  const [step, ...rest] = path;
  if (step === undefined) return [];
  if (step === '*') return Array.isArray(value) ? value.flatMap((item) => placesAt(item, rest)) : [];
  if (!isPlainMap(value)) return [];
  return rest.length === 0 ? [{ map: value, key: step }] : placesAt(value[step], rest);
}

/** Puts the values at `path` in `from` into `into` (the shape of `from`); a value `from` lacks stays lacking. */
function keepAt(into: unknown, from: unknown, path: string[]): void {
  const targets = placesAt(into, path);
  placesAt(from, path).forEach(({ map, key }, i) => {
    if (key in map) targets[i]!.map[key] = map[key];
  });
}

/** Gives every string at `path` a new random UUID (null and absent values stay so). */
function freshAt(params: unknown, path: string[]): void {
  for (const { map, key } of placesAt(params, path)) if (typeof map[key] === 'string') map[key] = crypto.randomUUID();
}

/** A copy of the plain maps and lists; every other value (a temporal value among them) is the same object. */
function copyPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyPlain);
  if (isPlainMap(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyPlain(v)]));
  return value;
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
  if (isPlainMap(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, paramShape(v)]));
  return value;
}

/**
 * An id that matches nothing, shaped as requests' ids are (a UUID): a statement run with it for a warm-up is planned
 * as requests' runs are, since Neo4j keeps one plan per kind of parameter and, for a string, its length class.
 */
export const NO_MATCH_ID = '00000000-0000-4000-8000-000000000000';

/**
 * Whether a read is the start-up rehearsal's (src/search/warmReads.ts), of the project NO_MATCH_ID, which holds
 * nothing. A read path whose next statement depends on what the first found (the full-text statements' second read,
 * src/db/fullText.ts) runs that statement anyway for it, so its plan is made before a user's first request needs it.
 */
export const isRehearsal = (projectId: unknown): boolean => projectId === NO_MATCH_ID;
