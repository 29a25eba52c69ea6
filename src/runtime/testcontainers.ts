// Optional path for machines with a Docker engine (GKS_USE_TESTCONTAINERS=true): Neo4j 5.26
// Community and the Temporal dev server as containers. Our machines and CI have no Docker engine and
// use the local processes instead; getContainerRuntimeClient() failing is reported plainly.
import type { Config } from '../config/config.js';
import type { Endpoints } from './services.js';
import type { Progress } from './provision.js';
import { SEARCH_ATTRIBUTES } from './processes.js';

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
      .withEnvironment({ NEO4J_AUTH: 'none' })
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
