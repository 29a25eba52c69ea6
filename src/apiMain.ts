// `npm run api`: one more API process on its own (no engines, no worker), for the multi-process mode
// (docs/operations.md "Multi-process mode"): run as many as the machine holds behind any HTTP load
// balancer. Uses NEO4J_URI and TEMPORAL_ADDRESS (default: the local engines of `npm start`) and
// the embedding engine of EMBEDDINGS_URL (default: the one `npm start` runs). Listens on PORT.
import { ConfigError, loadConfig } from './config/config.js';
import { ensureDevSecretsKey } from './runtime/devSecretsKey.js';
import { localEmbeddingsUrls } from './embeddings/setup.js';
import { neo4jLogin } from './runtime/neo4jPassword.js';
import { startService } from './server.js';

async function main(): Promise<void> {
  // Beside the local engines of `npm start`, its development secrets key (connections' secrets); against a
  // cluster, GKS_SECRETS_KEY must be set alike in every process.
  if (!process.env.NEO4J_URI) ensureDevSecretsKey(process.env, loadConfig().dataDir);
  const config = loadConfig();
  const { uri, user, password } = neo4jLogin(config);
  const temporalAddress = config.temporal.address ?? `127.0.0.1:${config.temporal.port}`;
  const local = config.embeddings.mode === 'embedded' ? localEmbeddingsUrls(config.embeddings) : null;
  // The process of `npm start` drains the embedding queue; a second drainer would embed the same texts twice.
  const service = await startService(
    config,
    {
      neo4jUri: uri,
      neo4jAuth: { user, password },
      temporalAddress,
      embeddingsUrl: local?.url ?? null,
      embeddingsQueryUrl: local?.queryUrl ?? null,
    },
    { worker: false, embeddingWorker: false },
  );
  process.stdout.write(`API ${service.url}/v1 (Neo4j ${uri}, Temporal ${temporalAddress})\n`);
  const stop = async () => {
    await service.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`${error instanceof ConfigError ? error.message : detail}\n`);
  process.exit(1);
});
