// The one module that owns database access: sessions opened and closed here, read and write
// transactions with metadata (request id, key id), named statements, and Neo4j failures mapped to
// the typed errors of the API. Nothing else in the service touches the driver.
import { AsyncLocalStorage } from 'node:async_hooks';
import neo4j, {
  type BookmarkManager,
  type Driver,
  type ManagedTransaction,
  Neo4jError,
  type QueryResult,
  type Record as Neo4jRecord,
  type Session,
} from 'neo4j-driver';
import { ApiError } from '../errors/catalogue.js';
import { DependencyHealth } from '../ops/health.js';
import { cypher, includes, mostUsedStatements } from './cypher.js';
import { toPlain, type Plain } from './values.js';
import { withTimeout } from '../shared/timeout.js';
import { restacked, unstacked } from './stacks.js';
import { lastRuns } from './warming.js';
import { BOOKMARK_FIELD, BOOKMARK_HEADER, MAX_BOOKMARKS } from './bookmarks.js';

export interface TxMeta {
  request_id?: string;
  key_id?: string;
  purpose?: string;
}

export type Row = Record<string, Plain>;

/**
 * A check of the caller's standing (its API key still stands) that a request defers to its first transaction
 * (withStanding): the statement is sent first in that transaction, pipelined with the work's own statements, and
 * its answer is read before the transaction commits. A refusal rolls the work back and is what the request answers.
 */
export interface StandingCheck {
  /** The named statement that reads the standing (one row, or none). */
  name: string;
  params: Record<string, unknown>;
  /** The error to answer when the row says the caller may not act; null when it may. */
  refusal(row: Row | undefined): Error | null;
}

/** A request's standing check and where it is: confirmed once a transaction has read it. */
interface Standing {
  check: StandingCheck;
  confirmed: boolean;
  /** The request has answered: work it left running (none should) is no longer checked. */
  over: boolean;
  /** The refusal once a check gave one: the request answers it, whatever else its work meets. */
  refused?: Error;
  /** The check read on its own, while it is under way (reads side by side wait for the same one). */
  confirming?: Promise<void>;
  /** The check's statement went out in a transaction: what it checks can no longer be added to (extendStanding). */
  sent?: boolean;
  /** A condition was added to the check (extendStanding): only the check's own refusal knows it. */
  extended?: boolean;
}

/**
 * A request's causal chain (Graph.causally): the bookmarks it was given, with which every transaction it opens
 * begins, and the bookmarks its transactions answered, the state the request saw or wrote (src/db/bookmarks.ts).
 */
interface Causal {
  given: string[];
  seen: string[];
}

/**
 * A request's standing check handed to the work of its transaction (Graph.writeCarrying), for the work's own first
 * statement to read beside what it writes: the check then costs no statement of its own. The carrying statement
 * reads what the check's statement reads and answers its row (null: no such key) for settle, before the commit.
 */
export interface CarriedStanding {
  /** The check's parameters, for the carrying statement. */
  params: Record<string, unknown>;
  /** Settles the check with the row the carrying statement answered; throws the check's refusal, if any. */
  settle(row: Row | undefined): void;
}

/** The check a carrying statement reads in place of its own statement: a known key's standing. */
const KEY_STANDING = 'auth/key_standing';

/**
 * A statement carries a request's standing check when it includes the check's reads (the fragment
 * cypher/auth/standing_subquery.cypher): it reads $standing (auth/key_standing's parameters, or null) and answers
 * that statement's row as `standing` on each row it gives. Run as an auto-commit read (readRows, readOne, readEach)
 * while the request's check is still unsent, it settles the check with no statement of its own (readCarrying);
 * otherwise it is sent with $standing null. A read by id with the check beside it (two auto-commit reads, as every
 * read sent it before) against one statement carrying it, 16 clients: 902 -> 1,448 a second, Neo4j CPU 0.95 ->
 * 0.53 ms and Node CPU 0.82 -> 0.58 ms each (.cache/probe/carryRead.ts).
 */
const carriesStanding = (name: string): boolean => includes(name, 'auth/standing_subquery');

/** A statement's parameters as sent: a carrying statement always has $standing (null when it carries no check). */
function standingParam(name: string, params: Record<string, unknown>): Record<string, unknown> {
  return !('standing' in params) && carriesStanding(name) ? { ...params, standing: null } : params;
}

/** The check's row a carrying statement answered as `standing` (undefined: no such key). */
function carriedRow(row: Row): Row | undefined {
  const standing = row.standing;
  return standing !== null && typeof standing === 'object' && !Array.isArray(standing) ? standing : undefined;
}

/**
 * A statement's rows are plain values (src/db/values.ts): a store may name their shape once, beside the statement,
 * as R (`tx.run<MemoryRow>(name, ...)`), instead of casting each field where it is read. R is what the
 * statement's RETURN clause gives, as plain values: it is declared, not checked.
 */
/** A transaction handed to service code: runs named statements and returns plain rows. */
export class Tx {
  constructor(
    private readonly tx: ManagedTransaction,
    private readonly mode: 'READ' | 'WRITE' = 'WRITE',
    private carried: CarriedStanding | null = null,
  ) {}

  /**
   * The request's standing check, handed over once, to the statement written to carry it (Graph.writeCarrying);
   * null when this transaction carries none (no request, or a transaction before this one read it).
   */
  carryStanding(): CarriedStanding | null {
    const carried = this.carried;
    this.carried = null;
    return carried;
  }

  /** Runs the named statement (cypher/<name>.cypher) with parameters. */
  async run<R extends object = Row>(name: string, params: Record<string, unknown> = {}): Promise<R[]> {
    return (await this.start(name, params)).records.map(toRow) as unknown as R[];
  }

  async one<R extends object = Row>(name: string, params: Record<string, unknown> = {}): Promise<R | undefined> {
    return (await this.run<R>(name, params))[0];
  }

  /**
   * Runs several named statements pipelined: every statement is sent before any answer is awaited, so
   * the transaction costs one round trip for all of them. Neo4j still runs them in the order given, so
   * a later statement sees what an earlier one wrote; use it where no statement's parameters depend on
   * an earlier statement's answer. Every answer is awaited (none is left unhandled) before the first
   * failure, if any, is thrown.
   */
  async runAll<T extends readonly object[][] = Row[][]>(
    statements: readonly (readonly [string, Record<string, unknown>])[],
  ): Promise<T> {
    const results = await allOrFirstFailure(statements.map(([name, params]) => this.start(name, params)));
    // T names each statement's rows, in order, as run<R> does for one: declared, not checked.
    return results.map((r: QueryResult) => (r.records ?? []).map(toRow)) as unknown as T;
  }

  /** Sends a named statement, noted for warming a restarted engine (lastRuns). */
  private start(name: string, params: Record<string, unknown>): Promise<QueryResult> {
    const sent = standingParam(name, params);
    lastRuns.note(name, sent, this.mode === 'READ');
    return unstacked(() => this.tx.run(cypher(name), sent));
  }

  /** For statements that are not files: schema files and preflight checks loaded by folder. */
  async runText(text: string, params: Record<string, unknown> = {}): Promise<Row[]> {
    const result = await unstacked(() => this.tx.run(text, params));
    return result.records.map(toRow);
  }
}

/** What read work needs of a transaction: named statements, one at a time or several side by side. */
export type Reader = Pick<Tx, 'run' | 'one' | 'runAll' | 'runText'>;

/**
 * A Reader whose every statement is its own auto-commit read (Graph.readEach): RUN and PULL in one round trip,
 * with no BEGIN and no COMMIT; the statements of one runAll go out side by side, each on a connection of its own.
 */
class EachStatement implements Reader {
  constructor(
    private readonly graph: Graph,
    private readonly meta: TxMeta,
  ) {}

  async run<R extends object = Row>(name: string, params: Record<string, unknown> = {}): Promise<R[]> {
    return this.graph.readRows<R>(name, params, this.meta);
  }

  async one<R extends object = Row>(name: string, params: Record<string, unknown> = {}): Promise<R | undefined> {
    return (await this.run<R>(name, params))[0];
  }

  async runAll<T extends readonly object[][] = Row[][]>(
    statements: readonly (readonly [string, Record<string, unknown>])[],
  ): Promise<T> {
    // T names each statement's rows, in order, as Tx.runAll does: declared, not checked.
    return (await allOrFirstFailure(statements.map(([name, params]) => this.run(name, params)))) as unknown as T;
  }

  async runText(text: string, params: Record<string, unknown> = {}): Promise<Row[]> {
    return this.graph.readText(text, params, this.meta);
  }
}

/** Every answer, in order; or, once every one has settled (none left unhandled), the first failure. */
async function allOrFirstFailure<T>(pending: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(pending);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

function toRow(record: Neo4jRecord): Row {
  const row: Row = {};
  for (const key of record.keys) row[String(key)] = toPlain(record.get(key));
  return row;
}

export interface GraphOptions {
  uri: string;
  user: string;
  password: string;
  database: string;
  /**
   * Bolt connect and handshake limit (default 1 s): a dying server that accepts TCP but never answers is unreachable
   * after it.
   */
  connectTimeoutMs?: number;
  /** Connections per process (default 100; NEO4J_POOL_SIZE). */
  poolSize?: number;
}

/** How long one request keeps retrying a lost connection before it answers 503 (fail fast). */
const UNAVAILABLE_BUDGET_MS = 1_000;
/** The bound on every transaction the service opens. */
const TX_TIMEOUT_MS = 60_000;
/** How long transient failures such as deadlocks are retried (the driver's own default window). */
const TRANSIENT_BUDGET_MS = 30_000;
/**
 * Attempts of one unit of work that met a node a concurrent write deleted (read committed: the node was there
 * when read, gone once the deleter's lock was released). The work runs again from the start and reads what is
 * committed now; the deleter has committed, so one more attempt normally settles it. More than a few means a
 * statement reaches a node its own transaction deleted (a bug), which then answers 409 rather than spinning.
 */
const CONCURRENT_DELETE_ATTEMPTS = 3;
/** After an outage: how many of the most used statements warm the engine before it takes work, and how long. */
const WARM_STATEMENTS = 30;
const WARM_BUDGET_MS = 3_000;
/**
 * How long past WARM_BUDGET_MS a statement already sent may finish: cut off, its work was lost. deltas/create takes
 * 2.0-3.1 s to plan on a cold engine (coldTrace drills), so at the bare budget it was sometimes cut off just short.
 */
const WARM_OVERRUN_MS = 2_000;
/** Only an outage this long warms the engine coming back (a restart takes at least this long). */
const WARM_AFTER_DOWN_MS = 5_000;

export class Graph {
  readonly driver: Driver;
  readonly database: string;
  /** Kept current by driver errors and the probe (startProbe); while down, work fails at once. */
  readonly health = new DependencyHealth('neo4j', 2);
  /**
   * Every session of this process shares one bookmark manager: a transaction begins once the database it reaches
   * holds every transaction this process committed before it, so on a cluster a read routed to a follower sees
   * what this process wrote (docs/operations.md, "Consistency across requests"). On one instance it costs nothing
   * measurable (bench/writeLayers.ts: the raw driver's executeQuery has one too).
   */
  readonly bookmarks: BookmarkManager = neo4j.bookmarkManager();
  private readonly causal = new AsyncLocalStorage<Causal>();

  constructor(options: GraphOptions) {
    this.database = options.database;
    this.driver = neo4j.driver(options.uri, neo4j.auth.basic(options.user, options.password), {
      disableLosslessIntegers: true,
      maxConnectionPoolSize: options.poolSize ?? 100,
      // Short, so a hung or overloaded server answers 503 in seconds; a dead one refuses at once, and
      // a dying one (its process torn down, its listening socket still open) fails the handshake.
      connectionAcquisitionTimeout: 3_000,
      connectionTimeout: options.connectTimeoutMs ?? 1_000,
      // Retries are ours (session below): lost connections get a short budget, deadlocks a long one.
      maxTransactionRetryTime: 0,
    });
  }

  /** Without a probe nothing would mark the graph up again, so only a probed Graph refuses work while down. */
  private probed = false;

  /** Whether the engine can take work beyond answering Bolt (a local supervisor's state); see gateOn. */
  private ready: () => boolean = () => true;

  /**
   * For an engine this process supervises: the graph is up only while the supervisor says it runs. A restarted
   * Neo4j answers `RETURN 1` seconds before it has finished starting, and work sent then waits those seconds.
   */
  gateOn(ready: () => boolean): void {
    this.ready = ready;
  }

  /**
   * Keeps the health current in the background: every 2 s while up, every 500 ms while down. Coming back, the
   * graph plans its most used statements again before it takes work (warm), so that the first requests after a
   * restart are not the ones that wait for a cold engine.
   */
  startProbe(): void {
    this.probed = true;
    this.health.startProbe(
      async () => {
        if (!this.ready() || !(await this.ping())) return false;
        // A short outage (a slow probe on a loaded machine) left the engine warm; a restart takes longer.
        if (!this.health.isUp() && Date.now() - Date.parse(this.health.snapshot().since) >= WARM_AFTER_DOWN_MS)
          await this.warm();
        return true;
      },
      2_000,
      500,
    );
  }

  /**
   * Warms a restarted engine with the statements this process ran most, two at a time, started within
   * WARM_BUDGET_MS (what each sends: lastRuns.warmings; a rehearsed write runs in a transaction rolled back). A
   * failure here is ignored (the work itself will meet it). Returns how many statements were warmed.
   */
  async warm(): Promise<number> {
    const deadline = Date.now() + WARM_BUDGET_MS;
    // Each statement with every size class it last ran with, the most recent first (lastRuns.warmings): a single
    // write and a batch are planned apart, and the most used statement is warmed for both before the next.
    const queue = mostUsedStatements(WARM_STATEMENTS).flatMap((name) => lastRuns.warmings(name));
    let warmed = 0;
    const lane = async () => {
      for (let next = queue.shift(); next !== undefined && Date.now() < deadline; next = queue.shift()) {
        const { text, params, read, rollback } = next;
        const session = this.driver.session({
          database: this.database,
          defaultAccessMode: read ? neo4j.session.READ : neo4j.session.WRITE,
        });
        const config = { timeout: deadline + WARM_OVERRUN_MS - Date.now(), metadata: { purpose: 'warm' } };
        try {
          if (read) await session.executeRead((tx) => tx.run(text, params), config);
          else if (rollback) await rolledBack(session, text, params, config);
          else await session.run(text, params, config);
          warmed += 1;
        } catch {
          // warmed when it is first run instead
        } finally {
          await session.close().catch(() => undefined);
        }
      }
    };
    await Promise.all([lane(), lane()]);
    return warmed;
  }

  async read<T>(work: (tx: Tx) => Promise<T>, meta: TxMeta = {}): Promise<T> {
    return this.session('READ', work, meta);
  }

  async write<T>(work: (tx: Tx) => Promise<T>, meta: TxMeta = {}): Promise<T> {
    return this.session('WRITE', work, meta);
  }

  /**
   * Write work run in a transaction that is then rolled back, whatever it did: a rehearsal that leaves Neo4j the
   * plans of its statements, as the transaction state they ran in keys them, and nothing else.
   */
  async rehearse(work: (tx: Tx) => Promise<void>, meta: TxMeta = {}): Promise<void> {
    const done = new Rehearsed();
    try {
      await this.session(
        'WRITE',
        async (tx) => {
          await work(tx);
          throw done; // the managed transaction rolls back on the way out
        },
        meta,
      );
    } catch (error) {
      if (error !== done) throw error;
    }
  }

  /**
   * A write whose own statement can carry the request's standing check (`check`: the name of the check's statement
   * it reads in its place, auth/key_standing): the work takes it with tx.carryStanding() and settles it with that
   * statement's answer. A check of another statement, or one the work leaves unsettled, is read in the transaction
   * before the commit, as write does. Measured on the 2-core machine, a single memory write in one transaction:
   * p50 43.2 ms with the check sent before deltas/create, 38.2 ms with deltas/create alone (.cache/probe, 350
   * interleaved rounds).
   */
  async writeCarrying<T>(check: string, work: (tx: Tx) => Promise<T>, meta: TxMeta = {}): Promise<T> {
    return this.retrying(() => this.attempt('WRITE', work, meta, check));
  }

  /**
   * A write that is one statement, run as an auto-commit transaction: RUN and PULL in one round trip, with no BEGIN
   * and no COMMIT (a transaction of its own for one statement costs a second round trip and two more messages). The
   * statement must write only when everything that would otherwise be checked before a commit holds, and answer no
   * row when it does not (deltas/create with $alone): it commits as it answers. It carries the request's standing
   * check ($standing, as readCarrying does), settled by its row's `standing`. Answers null, having written nothing,
   * when the write must take a transaction instead: the statement answered no row, or the request has a standing
   * check it cannot carry (one already under way). Measured in docs/performance.md ("Writes").
   */
  async writeAlone<R extends object = Row>(
    name: string,
    params: Record<string, unknown>,
    meta: TxMeta = {},
  ): Promise<R[] | null> {
    // The statement refuses to write for a key that is unknown, revoked or left without its project (what
    // auth/key_standing's refusal says); a condition added to the check (extendStanding) it does not know.
    const pending = this.pendingStanding();
    const carried =
      pending &&
      pending.check.name === KEY_STANDING &&
      !pending.confirming &&
      !pending.refused &&
      !pending.sent &&
      !pending.extended;
    if (pending && !carried) return null;
    if (carried) pending.sent = true;
    const sent = { ...params, standing: carried ? pending.check.params : null };
    lastRuns.note(name, sent, false);
    const rows = await this.retrying(async () => {
      const session = this.openSession('WRITE');
      try {
        const result = await unstacked(() =>
          session.run(cypher(name), sent, { metadata: cleanMeta(meta), timeout: this.txTimeoutMs() }),
        );
        this.noteSeen(session);
        return result.records.map(toRow);
      } finally {
        await session.close().catch(() => undefined);
      }
    });
    if (rows.length === 0) return null;
    if (carried) this.settle(pending, carriedRow(rows[0]!));
    // R names the statement's rows, as Tx.run<R> does: declared, not checked.
    return rows as unknown as R[];
  }

  /**
   * One named read statement as an auto-commit transaction (Bolt RUN and PULL in one round trip, no BEGIN
   * or COMMIT); for the hot single-statement reads such as authentication. Probe on the 2-core machine,
   * 1,300 interleaved rounds of the key lookup: p50 4.18 ms through executeQuery, 2.71 ms auto-commit.
   * Retries are the service's own (retrying), as for every unit of work.
   */
  async readOne<R extends object = Row>(
    name: string,
    params: Record<string, unknown> = {},
    meta: TxMeta = {},
  ): Promise<R | undefined> {
    return (await this.readRows<R>(name, params, meta))[0];
  }

  /** Every row of one named read statement, as an auto-commit transaction (see readOne). */
  async readRows<R extends object = Row>(
    name: string,
    params: Record<string, unknown> = {},
    meta: TxMeta = {},
  ): Promise<R[]> {
    // R names the statement's rows, as Tx.run<R> does: declared, not checked.
    if (carriesStanding(name)) return (await this.readCarrying(name, params, meta)) as unknown as R[];
    lastRuns.note(name, params, true);
    return (await this.readText(cypher(name), params, meta)) as unknown as R[];
  }

  /**
   * A statement that carries the standing check (carriesStanding) as an auto-commit read. The request's check, still
   * unsent, goes with it and is settled by its first row's `standing`; with no row to read it from, or the statement
   * failed, the check is read on its own. Reads side by side wait for the same settling (confirm), as they wait for
   * a check read alone. A check already under way, or none, leaves the statement to run as any read (readText),
   * $standing null.
   */
  private async readCarrying(name: string, params: Record<string, unknown>, meta: TxMeta): Promise<Row[]> {
    const pending = this.pendingStanding();
    const standing =
      pending && pending.check.name === KEY_STANDING && !pending.confirming && !pending.refused ? pending : undefined;
    const sent = { ...params, standing: standing ? standing.check.params : null };
    lastRuns.note(name, sent, true);
    if (!standing) return this.readText(cypher(name), sent, meta);
    standing.sent = true;
    const rows = this.autoCommit(cypher(name), sent, meta);
    standing.confirming = rows.then(
      (answer) => (answer[0] ? this.settle(standing, carriedRow(answer[0])) : this.readCheck(standing)),
      () => this.readCheck(standing),
    );
    const [answer] = await Promise.all([rows, standing.confirming]);
    return answer;
  }

  /**
   * Read work of several statements, each its own auto-commit read instead of one transaction: it saves the
   * transaction's COMMIT round trip (and BEGIN's work), and runAll's statements go out side by side. For hot
   * reads only, where read committed per statement is what one read transaction gives anyway (Neo4j reads
   * are read committed): a node another statement found may be gone by the next, as it may within one.
   */
  async readEach<T>(work: (reader: Reader) => Promise<T>, meta: TxMeta = {}): Promise<T> {
    return work(new EachStatement(this, meta));
  }

  /** A statement's text as an auto-commit read, with a pending standing check run beside it (read first). */
  async readText(text: string, params: Record<string, unknown>, meta: TxMeta): Promise<Row[]> {
    // An auto-commit read has no transaction to carry a pending standing check: the check runs beside it, and
    // the rows are given only once the check has passed.
    const standing = this.pendingStanding();
    const [rows] = await Promise.all([this.autoCommit(text, params, meta), standing && this.confirm(standing)]);
    return rows;
  }

  /** One statement as an auto-commit read (RUN and PULL in one round trip), retried by the service's rules. */
  private autoCommit(text: string, params: Record<string, unknown>, meta: TxMeta): Promise<Row[]> {
    return this.retrying(async () => {
      const session = this.openSession('READ');
      try {
        const result = await unstacked(() =>
          session.run(text, params, { metadata: cleanMeta(meta), timeout: this.txTimeoutMs() }),
        );
        this.noteSeen(session);
        return result.records.map(toRow);
      } finally {
        await session.close().catch(() => undefined);
      }
    });
  }

  /**
   * Runs a request's work causally after `given` (bookmarks a client sent back, src/db/bookmarks.ts): every
   * transaction the work opens begins once the database holds that state, besides what this process committed
   * (the shared manager). Answers the work's value and the bookmarks its transactions answered (none when it ran
   * none), the state a later request may ask for.
   */
  async causally<T>(given: string[], work: () => Promise<T>): Promise<{ value: T; bookmarks: string[] }> {
    const causal: Causal = { given, seen: [] };
    const value = await this.causal.run(causal, work);
    return { value, bookmarks: causal.seen };
  }

  /** A session with the process's bookmark manager and the request's own bookmarks, if any. */
  private openSession(mode: 'READ' | 'WRITE'): Session {
    const given = this.causal.getStore()?.given;
    return this.driver.session({
      database: this.database,
      defaultAccessMode: mode === 'READ' ? neo4j.session.READ : neo4j.session.WRITE,
      bookmarkManager: this.bookmarks,
      ...(given && given.length > 0 ? { bookmarks: given } : {}),
    });
  }

  /** Adds what a finished transaction answered to the request's chain (the latest MAX_BOOKMARKS kept). */
  private noteSeen(session: Session): void {
    const causal = this.causal.getStore();
    if (!causal) return;
    const seen = causal.seen.filter((b) => !session.lastBookmarks().includes(b));
    causal.seen = [...seen, ...session.lastBookmarks()].slice(-MAX_BOOKMARKS);
  }

  private readonly standing = new AsyncLocalStorage<Standing>();

  /**
   * Runs a request's work with its standing check deferred (StandingCheck): the first transaction the work opens
   * carries the check, pipelined, and commits only if it passes. If the work opened none, or failed before its
   * first, the check runs on its own before the request answers, so a refusal is always what it answers.
   */
  async withStanding<T>(check: StandingCheck, work: () => Promise<T>): Promise<T> {
    const standing: Standing = { check, confirmed: false, over: false };
    try {
      return await this.standing.run(standing, async () => {
        let result: T;
        try {
          result = await work();
        } catch (error) {
          // A refusal comes before whatever else the work met (a 401, not the 400 or 404 it would have given).
          if (!standing.confirmed) await this.confirm(standing);
          throw error;
        }
        if (!standing.confirmed) await this.confirm(standing);
        return result;
      });
    } finally {
      standing.over = true;
    }
  }

  /**
   * Adds a condition to the standing check the current request has yet to send: parameters of its statement and a
   * refusal of its own, read after the check's. The condition is then confirmed with no read of its own, in the
   * request's first transaction. False when there is no check left to add to (none deferred, or already sent): the
   * caller must check on its own.
   */
  extendStanding(params: Record<string, unknown>, refusal: (row: Row | undefined) => Error | null): boolean {
    const standing = this.pendingStanding();
    if (!standing || standing.sent || standing.confirming) return false;
    const check = standing.check;
    standing.check = {
      name: check.name,
      params: { ...check.params, ...params },
      refusal: (row) => check.refusal(row) ?? refusal(row),
    };
    standing.extended = true;
    return true;
  }

  /** The standing check the current request still has to pass, if any. */
  private pendingStanding(): Standing | undefined {
    const standing = this.standing.getStore();
    return standing && !standing.confirmed && !standing.over ? standing : undefined;
  }

  /** Reads the standing check on its own (an auto-commit read) and throws its refusal, if any. */
  private confirm(standing: Standing): Promise<void> {
    if (standing.refused) return Promise.reject(standing.refused);
    // Reads side by side share one check.
    standing.confirming ??= this.readCheck(standing);
    return standing.confirming;
  }

  /** The check's own statement as an auto-commit read, then settled with its row. */
  private readCheck(standing: Standing): Promise<void> {
    return this.autoCommit(cypher(standing.check.name), standing.check.params, { purpose: 'authenticate' }).then(
      (rows) => this.settle(standing, rows[0]),
    );
  }

  private settle(standing: Standing, row: Row | undefined): void {
    const refusal = standing.check.refusal(row);
    if (refusal) throw (standing.refused = refusal);
    standing.confirmed = true;
  }

  /**
   * Checks that the database answers a query (not only that Bolt accepts connections), for the probe,
   * start-up and the fail-fast path; a server that accepts a connection but never answers is down after deadlineMs.
   */
  async ping(deadlineMs = 3_000): Promise<boolean> {
    const session = this.driver.session({ database: this.database, defaultAccessMode: neo4j.session.READ });
    try {
      await withTimeout(session.run('RETURN 1', {}, { timeout: Math.min(2_000, deadlineMs) }), deadlineMs);
      return true;
    } catch {
      return false;
    } finally {
      await session.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.health.stopProbe();
    await this.driver.close();
  }

  /** Every transaction the service opens is bounded (docs/operations.md, "Transaction timeouts"). */
  private txTimeoutMs(): number {
    return TX_TIMEOUT_MS;
  }

  private async session<T>(mode: 'READ' | 'WRITE', work: (tx: Tx) => Promise<T>, meta: TxMeta): Promise<T> {
    return this.retrying(() => this.attempt(mode, work, meta));
  }

  /**
   * Runs one unit of work with the service's failure rules: fail fast while down, retry lost connections
   * and transient errors within their budgets.
   */
  private async retrying<T>(once: () => Promise<T>): Promise<T> {
    if (this.probed && !this.health.isUp()) throw graphUnavailable(this.health);
    const began = Date.now();
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await once();
      } catch (error) {
        const elapsed = Date.now() - began;
        if (isConnectionLoss(error)) {
          // A pooled connection from before a restart fails once: the work is retried only when a
          // bounded ping says the server answers. A dead or dying server (one that still accepts
          // connections while its process is torn down) fails the ping within the budget: 503 at once.
          const remaining = UNAVAILABLE_BUDGET_MS - elapsed;
          if (remaining > 0 && (!this.probed || this.health.isUp()) && (await this.ping(Math.min(remaining, 500)))) {
            await sleep(Math.min(250, 50 * attempt));
            continue;
          }
          this.health.markDown(error instanceof Error ? error.message : String(error));
          throw graphUnavailable(this.health);
        }
        if (isConcurrentDelete(error) && attempt < CONCURRENT_DELETE_ATTEMPTS) continue;
        if (isTransient(error) && elapsed < TRANSIENT_BUDGET_MS) {
          await sleep(Math.min(1_000, 20 * 2 ** attempt) * (0.5 + Math.random()));
          continue;
        }
        throw restacked(mapNeo4jError(error));
      }
    }
  }

  private async attempt<T>(
    mode: 'READ' | 'WRITE',
    work: (tx: Tx) => Promise<T>,
    meta: TxMeta,
    carries: string | null = null,
  ): Promise<T> {
    const session = this.openSession(mode);
    const config = { metadata: cleanMeta(meta), timeout: this.txTimeoutMs() };
    const standing = this.pendingStanding();
    try {
      const run = (tx: ManagedTransaction): Promise<T> =>
        !standing
          ? work(new Tx(tx, mode))
          : standing.check.name === carries
            ? this.standingCarried(standing, tx, mode, work)
            : this.standingFirst(standing, tx, mode, work);
      const value = mode === 'READ' ? await session.executeRead(run, config) : await session.executeWrite(run, config);
      this.noteSeen(session);
      return value;
    } finally {
      // Closing a session whose connection died must not replace the real error.
      await session.close().catch(() => undefined);
    }
  }

  /**
   * The work of a transaction whose own statement carries the request's standing check (writeCarrying). The check
   * is settled by that statement's answer; one the work left unsettled is read here, before the commit. A work that
   * fails before its statement answered leaves the check to withStanding, which reads it on its own and answers
   * its refusal first.
   */
  private async standingCarried<T>(
    standing: Standing,
    tx: ManagedTransaction,
    mode: 'READ' | 'WRITE',
    work: (tx: Tx) => Promise<T>,
  ): Promise<T> {
    standing.sent = true;
    // A refusal throws out of the work, so a work that returns has the check confirmed, or left it unread.
    const settle = (row: Row | undefined) => {
      if (!standing.confirmed) this.settle(standing, row);
    };
    const value = await work(new Tx(tx, mode, { params: standing.check.params, settle }));
    if (!standing.confirmed) this.settle(standing, (await sendCheck(tx, standing.check)).records.map(toRow)[0]);
    return value;
  }

  /**
   * The work of a transaction that also carries the request's standing check: the check is sent first, so it
   * travels with the work's first statement (no round trip of its own), and is read before the work's answer is
   * returned, that is before the commit. A refusal is thrown instead of the work's answer or error, so the
   * transaction rolls back.
   */
  private async standingFirst<T>(
    standing: Standing,
    tx: ManagedTransaction,
    mode: 'READ' | 'WRITE',
    work: (tx: Tx) => Promise<T>,
  ): Promise<T> {
    standing.sent = true;
    const check = sendCheck(tx, standing.check);
    let outcome: { ok: true; value: T } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, value: await work(new Tx(tx, mode)) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    let row: Row | undefined;
    try {
      row = (await check).records.map(toRow)[0];
    } catch (error) {
      // The check was sent first, so it fails only with the transaction: the work's own error says more.
      throw outcome.ok ? error : outcome.error;
    }
    if (!standing.confirmed) this.settle(standing, row);
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs a statement in a transaction that is then rolled back, whatever it did (a warm-up's rehearsal). */
async function rolledBack(
  session: Session,
  text: string,
  params: Record<string, unknown>,
  config: { timeout: number; metadata: Record<string, string> },
): Promise<void> {
  const tx = session.beginTransaction(config);
  try {
    await tx.run(text, params);
  } finally {
    await tx.rollback();
  }
}

/** Sends a standing check's statement in a transaction (its answer read where the check is settled). */
function sendCheck(tx: ManagedTransaction, check: StandingCheck): Promise<QueryResult> {
  return unstacked(() => tx.run(cypher(check.name), check.params));
}

function graphUnavailable(health: DependencyHealth): ApiError {
  const { since } = health.snapshot();
  return new ApiError(
    'graph_unavailable',
    'The graph database is unavailable; try again shortly.',
    { since },
    { 'Retry-After': String(health.retryAfterSeconds) },
  );
}

/** The driver's pool timeout has no Neo4j code (it never reached a server): it is recognised by its fixed text. */
function isAcquisitionTimeout(error: Neo4jError): boolean {
  return error.code === 'N/A' && error.message.startsWith('Connection acquisition timed out');
}

/**
 * A connection that failed or could not be made (an exhausted pool is overload, not this: it answers 503 without
 * marking the graph down).
 */
function isConnectionLoss(error: unknown): boolean {
  return error instanceof Neo4jError && UNAVAILABLE.has(error.code);
}

/** Retried within TRANSIENT_BUDGET_MS: deadlocks and the like, not a transaction stopped by its timeout. */
function isTransient(error: unknown): boolean {
  return (
    error instanceof Neo4jError &&
    error.code.startsWith('Neo.TransientError.') &&
    !UNAVAILABLE.has(error.code) &&
    !TIMED_OUT.test(error.code) &&
    error.code !== BOOKMARK_TIMEOUT
  );
}

/** The database did not reach a request's bookmark within its wait (db.transaction.bookmark_ready_timeout). */
const BOOKMARK_TIMEOUT = 'Neo.TransientError.Transaction.BookmarkTimeout';
/** A bookmark the database cannot read, or bookmarks of several databases (InvalidBookmarkMixture). */
const INVALID_BOOKMARK = /^Neo\.ClientError\.Transaction\.InvalidBookmark/;

/**
 * Service code's own sign that a statement met a node a concurrent write deleted while it read (its properties
 * read as null): the unit of work runs again, as for Neo4j's EntityNotFound, and past the attempts answers 409.
 */
export class ConcurrentDeletion extends Error {
  override name = 'ConcurrentDeletion';
}

/** What Graph.rehearse throws to roll its transaction back, and catches. */
class Rehearsed extends Error {
  override name = 'Rehearsed';
}

/** A node or relationship this transaction read was deleted by a concurrent one before this one wrote to it. */
function isConcurrentDelete(error: unknown): boolean {
  return (error instanceof Neo4jError && error.code === ENTITY_NOT_FOUND) || error instanceof ConcurrentDeletion;
}

const ENTITY_NOT_FOUND = 'Neo.ClientError.Statement.EntityNotFound';

const TIMED_OUT = /TransactionTimedOut|Transaction\.(Terminated|LockClientStopped)/;

function cleanMeta(meta: TxMeta): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(meta)) if (typeof v === 'string') out[k] = v;
  return out;
}

const UNAVAILABLE = new Set(['ServiceUnavailable', 'SessionExpired', 'Neo.TransientError.General.DatabaseUnavailable']);

/** Maps driver failures to API errors by their Neo4j code; ApiErrors thrown by service code pass through. */
export function mapNeo4jError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (error instanceof ConcurrentDeletion)
    return new ApiError('conflict', 'A concurrent write deleted data this request reads; retry the request.');
  if (error instanceof Neo4jError) {
    if (error.code === BOOKMARK_TIMEOUT) {
      return new ApiError(
        'graph_unavailable',
        `The graph database has not yet reached the state named by ${BOOKMARK_HEADER}; try again shortly.`,
        { neo4j_code: error.code, fields: [{ field: BOOKMARK_FIELD, reason: 'not reached yet' }] },
        { 'Retry-After': '2' },
      );
    }
    if (INVALID_BOOKMARK.test(error.code)) {
      return new ApiError('invalid_request', `${BOOKMARK_HEADER} names no state of this graph database.`, {
        neo4j_code: error.code,
        fields: [{ field: BOOKMARK_FIELD, reason: 'names no state of this graph database' }],
      });
    }
    if (
      UNAVAILABLE.has(error.code) ||
      error.code.startsWith('Neo.TransientError.General') ||
      isAcquisitionTimeout(error)
    ) {
      return new ApiError(
        'graph_unavailable',
        'The graph database is unavailable; try again shortly.',
        {},
        { 'Retry-After': '2' },
      );
    }
    if (error.code === 'Neo.ClientError.Schema.ConstraintValidationFailed') {
      return new ApiError('conflict', 'The write collides with committed data (a uniqueness rule).', {
        neo4j_code: error.code,
      });
    }
    if (error.code === 'Neo.TransientError.Transaction.DeadlockDetected') {
      return new ApiError('conflict', 'A concurrent write touched the same data; retry the request.');
    }
    // Still meeting a deleted node after CONCURRENT_DELETE_ATTEMPTS runs of the work: a conflict, not a 500.
    if (error.code === ENTITY_NOT_FOUND) {
      return new ApiError('conflict', 'A concurrent write deleted data this write uses; retry the request.', {
        neo4j_code: error.code,
      });
    }
    // The engine is up but did not finish in time (overload): retryable, never an internal error.
    if (TIMED_OUT.test(error.code)) {
      return new ApiError(
        'graph_unavailable',
        'The graph database did not answer in time (overloaded); try again shortly.',
        { neo4j_code: error.code },
        { 'Retry-After': '5' },
      );
    }
  }
  return error;
}

/** Waits for Bolt to answer (engines still starting, or a cluster behind a load balancer). */
export async function waitForGraph(graph: Graph, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await graph.ping())) {
    if (Date.now() > deadline)
      throw new Error('Neo4j is not reachable; check NEO4J_URI, NEO4J_USER and NEO4J_PASSWORD.');
    await new Promise((r) => setTimeout(r, 500));
  }
}
