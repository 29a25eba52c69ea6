// The one module that owns database access: sessions opened and closed here, read and write
// transactions with metadata (request id, key id), named statements, and Neo4j failures mapped to
// the typed errors of the API. Nothing else in the service touches the driver.
import neo4j, { type Driver, type ManagedTransaction, Neo4jError } from 'neo4j-driver';
import { ApiError } from '../errors/catalogue.js';
import { cypher } from './cypher.js';
import { toPlain, type Plain } from './values.js';

export interface TxMeta {
  request_id?: string;
  key_id?: string;
  purpose?: string;
}

export type Row = Record<string, Plain>;

/** A transaction handed to service code: runs named statements and returns plain rows. */
export class Tx {
  constructor(private readonly tx: ManagedTransaction) {}

  /** Runs the named statement (cypher/<name>.cypher) with parameters. */
  async run(name: string, params: Record<string, unknown> = {}): Promise<Row[]> {
    return this.runText(cypher(name), params);
  }

  async one(name: string, params: Record<string, unknown> = {}): Promise<Row | undefined> {
    return (await this.run(name, params))[0];
  }

  /** For statements that are not files: schema files and preflight checks loaded by folder. */
  async runText(text: string, params: Record<string, unknown> = {}): Promise<Row[]> {
    const result = await this.tx.run(text, params);
    return result.records.map((record) => {
      const row: Row = {};
      for (const key of record.keys) row[String(key)] = toPlain(record.get(key));
      return row;
    });
  }
}

export interface GraphOptions {
  uri: string;
  user: string;
  password: string;
  database: string;
}

export class Graph {
  readonly driver: Driver;
  readonly database: string;

  constructor(options: GraphOptions) {
    this.database = options.database;
    this.driver = neo4j.driver(options.uri, neo4j.auth.basic(options.user, options.password), {
      disableLosslessIntegers: true,
      maxConnectionPoolSize: 50,
      connectionAcquisitionTimeout: 10_000,
      connectionTimeout: 5_000,
    });
  }

  async read<T>(work: (tx: Tx) => Promise<T>, meta: TxMeta = {}): Promise<T> {
    return this.session('READ', work, meta);
  }

  async write<T>(work: (tx: Tx) => Promise<T>, meta: TxMeta = {}): Promise<T> {
    return this.session('WRITE', work, meta);
  }

  /** Checks Bolt connectivity, for /readyz and start-up. */
  async ping(): Promise<boolean> {
    try {
      await this.driver.verifyConnectivity({ database: this.database });
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.driver.close();
  }

  private async session<T>(mode: 'READ' | 'WRITE', work: (tx: Tx) => Promise<T>, meta: TxMeta): Promise<T> {
    const session = this.driver.session({
      database: this.database,
      defaultAccessMode: mode === 'READ' ? neo4j.session.READ : neo4j.session.WRITE,
    });
    const config = { metadata: cleanMeta(meta), timeout: 60_000 };
    try {
      const run = (tx: ManagedTransaction): Promise<T> => work(new Tx(tx));
      return mode === 'READ' ? await session.executeRead(run, config) : await session.executeWrite(run, config);
    } catch (error) {
      throw mapNeo4jError(error);
    } finally {
      await session.close();
    }
  }
}

function cleanMeta(meta: TxMeta): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(meta)) if (typeof v === 'string') out[k] = v;
  return out;
}

const UNAVAILABLE = new Set(['ServiceUnavailable', 'SessionExpired', 'Neo.TransientError.General.DatabaseUnavailable']);

/** Maps driver failures to API errors by their Neo4j code; ApiErrors thrown by service code pass through. */
export function mapNeo4jError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (error instanceof Neo4jError) {
    if (UNAVAILABLE.has(error.code) || error.code.startsWith('Neo.TransientError.General')) {
      return new ApiError('graph_unavailable', 'The graph database is unavailable; try again shortly.');
    }
    if (error.code === 'Neo.ClientError.Schema.ConstraintValidationFailed') {
      return new ApiError('conflict', 'The write collides with committed data (a uniqueness rule).', {
        neo4j_code: error.code,
      });
    }
    if (error.code === 'Neo.TransientError.Transaction.DeadlockDetected') {
      return new ApiError('conflict', 'A concurrent write touched the same data; retry the request.');
    }
  }
  return error;
}

/** Waits for Bolt to answer (engines still starting, or a cluster behind a load balancer). */
export async function waitForGraph(graph: Graph, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await graph.ping())) {
    if (Date.now() > deadline) throw new Error('Neo4j is not reachable; check NEO4J_URI, NEO4J_USER and NEO4J_PASSWORD.');
    await new Promise((r) => setTimeout(r, 500));
  }
}
