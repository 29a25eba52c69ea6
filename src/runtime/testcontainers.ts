// Optional path for machines with a Docker engine (GKS_USE_TESTCONTAINERS=true): Neo4j 5.26
// Community and the Temporal dev server as containers. Our machines and CI have no Docker engine and
// use the local processes instead; getContainerRuntimeClient() failing is reported plainly.
import type { Config } from '../config/config.js';
import type { Endpoints } from './services.js';
import type { Progress } from './provision.js';
import { SEARCH_ATTRIBUTES } from './processes.js';

/** A neo4j.conf setting as the Neo4j image reads it from the environment: NEO4J_, `_` as `__`, `.` as `_`. */
export function dockerSettingName(setting: string): string {
  return `NEO4J_${setting.replaceAll('_', '__').replaceAll('.', '_')}`;
}

/**
 * The container engine's settings, the same the local launcher gives its engine (scripts/neo4j/Launcher.java):
 * heap and page cache sized from the machine, the transaction timeout and its 100 ms monitor, and the vector
 * indexes' merge factor (docs/operations.md, "Neo4j settings"), with authentication off.
 */
export function containerNeo4jEnvironment(local: Config['neo4j']['local']): Record<string, string> {
  const settings: Record<string, string> = {
    'server.memory.heap.initial_size': `${local.heapMb}m`,
    'server.memory.heap.max_size': `${local.heapMb}m`,
    'server.memory.pagecache.size': `${local.pageCacheMb}m`,
    'db.transaction.timeout': `${local.txTimeoutSeconds}s`,
    'db.transaction.monitor.check.interval': '100ms',
    'internal.dbms.index.vector.standard_merge_factor': String(local.vectorMergeFactor),
  };
  return {
    NEO4J_AUTH: 'none',
    ...Object.fromEntries(Object.entries(settings).map(([name, value]) => [dockerSettingName(name), value])),
  };
}

export async function startWithTestcontainers(config: Config, progress: Progress): Promise<Endpoints> {
  const tc = await import('testcontainers');
  try {
    await tc.getContainerRuntimeClient();
  } catch (error) {
    throw new Error(
      `GKS_USE_TESTCONTAINERS=true but no Docker engine is reachable (${(error as Error).message}). Unset it ` +
        'to use the local engines.',
      { cause: error },
    );
  }
  const stops: (() => Promise<unknown>)[] = [];
  let neo4jUri = config.neo4j.uri;
  let temporalAddress = config.temporal.address;
  let temporalUiUrl: string | null = null;
  if (!neo4jUri) {
    progress('Starting Neo4j 5.26 Community in a container…');
    const neo4j = await new tc.GenericContainer('neo4j:5.26-community')
      .withEnvironment(containerNeo4jEnvironment(config.neo4j.local))
      .withExposedPorts(7687)
      .withWaitStrategy(tc.Wait.forLogMessage(/Started\./))
      .start();
    stops.push(() => neo4j.stop());
    neo4jUri = `bolt://${neo4j.getHost()}:${neo4j.getMappedPort(7687)}`;
  }
  if (!temporalAddress) {
    progress('Starting the Temporal dev server in a container…');
    const temporal = await new tc.GenericContainer('temporalio/temporal:1.5.1')
      .withCommand([
        'server',
        'start-dev',
        '--ip',
        '0.0.0.0',
        ...SEARCH_ATTRIBUTES.flatMap((a) => ['--search-attribute', a]),
      ])
      .withExposedPorts(7233, 8233)
      .withWaitStrategy(tc.Wait.forListeningPorts())
      .start();
    stops.push(() => temporal.stop());
    temporalAddress = `${temporal.getHost()}:${temporal.getMappedPort(7233)}`;
    temporalUiUrl = `http://${temporal.getHost()}:${temporal.getMappedPort(8233)}`;
  }
  return {
    neo4jUri,
    temporalAddress,
    temporalUiUrl,
    supervisors: [],
    stop: async () => {
      for (const s of stops.reverse()) await s();
    },
  };
}
