// What services are given. Each service function takes only the parts it uses, typed by these small
// interfaces below HTTP, so an activity, the CLI or a test can call it without the HTTP dependency
// bag; src/http/deps.ts builds the one object of the running service that has all of them.
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Graph } from '../db/graph.js';
import type { TemporalGateway } from '../temporal/connection.js';

export interface GraphDeps {
  graph: Graph;
}

/** The configuration sections a service reads, e.g. ConfigDeps<'llm' | 'temporal'>. */
export interface ConfigDeps<K extends keyof Config> {
  config: Pick<Config, K>;
}

export interface LoggerDeps {
  logger: Logger;
}

/** The Temporal gateway: a client on demand and the health of the connection. */
export interface TemporalDeps {
  temporal: TemporalGateway;
}
