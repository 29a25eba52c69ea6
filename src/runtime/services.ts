// Decides where Neo4j and Temporal come from: NEO4J_URI / TEMPORAL_ADDRESS set means use those and
// start nothing; GKS_USE_TESTCONTAINERS=true uses a Docker engine through Testcontainers; otherwise
// the project provisions and starts the real engines locally (the path our machines and CI take).
import path from 'node:path';
import type { Config } from '../config/config.js';
import { provisionNeo4j, provisionTemporal, type Progress } from './provision.js';
import { startNeo4j, startTemporal, type RunningService } from './processes.js';
import type { EngineSupervisor } from './supervisor.js';
import { startEmbeddingsEngine } from './embeddingsProcess.js';
import { LOCAL_NEO4J_USER, localNeo4jPassword } from './neo4jPassword.js';
import { provisionEmbeddings } from './provisionEmbeddings.js';
import { startWithTestcontainers } from './testcontainers.js';

export interface Endpoints {
  neo4jUri: string;
  /** The login of a local engine this process started (its generated password); null: the configured one. */
  neo4jAuth?: { user: string; password: string } | null;
  temporalAddress: string;
  temporalUiUrl: string | null;
  /** The embedded embedding engine's OpenAI-compatible base URL when this process started it. */
  embeddingsUrl?: string | null;
  /** The embedded engine for questions alone (config embeddings.queryEngine), when this process started it. */
  embeddingsQueryUrl?: string | null;
  /** The engines this process started and restarts when they die (none for external ones). */
  supervisors: EngineSupervisor[];
  /** Stops what this process started, in reverse order. */
  stop(): Promise<void>;
}

export interface ServiceLayout {
  /** Where the local engines keep data; tests use their own folder. */
  dataDir: string;
  neo4jPort: number;
  temporalPort: number;
  temporalUiPort: number | null;
  /** The embedded embedding engine's port (EMBEDDINGS unset or on, no EMBEDDINGS_URL); default config's. */
  embeddingsPort?: number;
}

export async function ensureServices(config: Config, layout: ServiceLayout, progress: Progress): Promise<Endpoints> {
  const started: RunningService[] = [];
  const stop = async () => {
    for (const s of started) s.supervisor?.halt();
    for (const s of [...started].reverse()) await s.stop();
  };
  if (config.dockerFallback && (!config.neo4j.uri || !config.temporal.address)) {
    return startWithTestcontainers(config, progress);
  }
  try {
    let neo4jUri = config.neo4j.uri;
    let neo4jAuth: Endpoints['neo4jAuth'] = null;
    let temporalAddress = config.temporal.address;
    let temporalUiUrl: string | null = null;
    const logs = path.join(layout.dataDir, 'logs');
    // Provision both before starting either, so a missing tool fails before anything runs.
    const neo4jInstall = neo4jUri ? undefined : await provisionNeo4j(config.cacheDir, progress);
    const temporalBinary = temporalAddress ? undefined : await provisionTemporal(config.cacheDir, progress);
    const embeddingsPython =
      config.embeddings.mode === 'embedded' ? await provisionEmbeddings(config.cacheDir, progress) : undefined;
    if (neo4jInstall) {
      progress('Starting Neo4j…');
      neo4jAuth = { user: LOCAL_NEO4J_USER, password: localNeo4jPassword(layout.dataDir, true)! };
      started.push(
        await startNeo4j(
          neo4jInstall,
          {
            dataDir: path.join(layout.dataDir, 'neo4j'),
            port: layout.neo4jPort,
            logFile: path.join(logs, 'neo4j.log'),
            password: neo4jAuth.password,
            memory: config.neo4j.local,
          },
          progress,
        ),
      );
      neo4jUri = `bolt://127.0.0.1:${layout.neo4jPort}`;
    }
    if (temporalBinary) {
      progress('Starting the Temporal dev server…');
      started.push(
        await startTemporal(
          temporalBinary,
          {
            dbFile: path.join(layout.dataDir, 'temporal', 'temporal.db'),
            port: layout.temporalPort,
            uiPort: layout.temporalUiPort,
            namespace: config.temporal.namespace,
            logFile: path.join(logs, 'temporal.log'),
          },
          progress,
        ),
      );
      temporalAddress = `127.0.0.1:${layout.temporalPort}`;
      temporalUiUrl = layout.temporalUiPort === null ? null : `http://127.0.0.1:${layout.temporalUiPort}`;
    }
    let embeddingsUrl: string | null = null;
    let embeddingsQueryUrl: string | null = null;
    if (embeddingsPython) {
      progress('Starting the embedding engine…');
      const engine = await startEmbeddingsEngine(
        embeddingsPython,
        {
          port: layout.embeddingsPort ?? config.embeddings.port,
          threads: config.embeddings.threads,
          nice: config.embeddings.nice,
          variant: config.embeddings.variant,
          logFile: path.join(logs, 'embeddings.log'),
        },
        progress,
      );
      started.push(engine);
      embeddingsUrl = engine.url;
      if (config.embeddings.queryEngine) {
        const questions = await startEmbeddingsEngine(
          embeddingsPython,
          {
            port: (layout.embeddingsPort ?? config.embeddings.port) + 1,
            threads: config.embeddings.queryThreads,
            nice: 0,
            variant: config.embeddings.variant,
            logFile: path.join(logs, 'embeddings-queries.log'),
            role: 'queries',
          },
          progress,
        );
        started.push(questions);
        embeddingsQueryUrl = questions.url;
      }
    }
    const supervisors = started.flatMap((s) => (s.supervisor ? [s.supervisor] : []));
    return {
      neo4jUri: neo4jUri as string,
      neo4jAuth,
      temporalAddress: temporalAddress as string,
      temporalUiUrl,
      embeddingsUrl,
      embeddingsQueryUrl,
      supervisors,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
