// The engine clients of a process other than `npm start` (the gks CLI, the worker), built from its configuration:
// Neo4j with the login `npm start` keeps, and Temporal at its address or the local dev server's port.
import type { Config } from '../config/config.js';
import { Graph } from '../db/graph.js';
import { TemporalGateway } from '../temporal/connection.js';
import { neo4jLogin } from './neo4jPassword.js';

/** The graph client and where it points; poolSize true sizes its pool from the configuration (a worker). */
export function graphFromConfig(config: Config, poolSize = false): { graph: Graph; uri: string; user: string } {
  const { uri, user, password } = neo4jLogin(config);
  const graph = new Graph({
    uri,
    user,
    password,
    database: config.neo4j.database,
    connectTimeoutMs: config.neo4j.connectTimeoutMs,
    ...(poolSize ? { poolSize: config.neo4j.poolSize } : {}),
  });
  return { graph, uri, user };
}

/** The Temporal address: TEMPORAL_ADDRESS, or the local dev server's port. */
export function temporalAddress(config: Config): string {
  return config.temporal.address ?? `127.0.0.1:${config.temporal.port}`;
}

/**
 * A Temporal gateway for the configured namespace and task queue; with the process's graph, the workflows it starts
 * carry that graph's bookmarks (src/temporal/connection.ts BOOKMARKS_HEADER).
 */
export function gatewayFromConfig(config: Config, graph?: Graph): TemporalGateway {
  return new TemporalGateway(
    {
      address: temporalAddress(config),
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      security: config.temporal.security,
    },
    graph ? () => graph.bookmarks.getBookmarks() : null,
  );
}
