// `npm run worker`: a Temporal worker on its own, for running loop workers apart from the API
// (scale them separately, or restart them without touching the API). Uses NEO4J_URI and
// TEMPORAL_ADDRESS (default: the local engines of `npm start`).
import pino from 'pino';
import { ConfigError, loadConfig } from './config/config.js';
import { loggerOptions } from './config/logging.js';
import { waitForGraph } from './db/graph.js';
import { setEmbeddingQueue } from './embeddings/queue.js';
import { createEmbedder, localEmbeddingsUrls } from './embeddings/setup.js';
import { ensureDevSecretsKey } from './runtime/devSecretsKey.js';
import { gatewayFromConfig, graphFromConfig, temporalAddress } from './runtime/clients.js';
import { startWorker } from './temporal/worker.js';
import { WebhookDispatcher } from './webhooks/dispatch.js';

async function main(): Promise<void> {
  // Beside the local engines of `npm start`, its development secrets key (connections' secrets); against a
  // cluster, GKS_SECRETS_KEY must be set alike in every process.
  if (!process.env.NEO4J_URI) ensureDevSecretsKey(process.env, loadConfig().dataDir);
  const config = loadConfig();
  // JSON lines on stdout as the API's: its activities' lines and the Temporal SDK's own (src/temporal/worker.ts).
  const logger = pino(loggerOptions(config.logLevel));
  const { graph, uri } = graphFromConfig(config, true);
  const address = temporalAddress(config);
  await waitForGraph(graph, 60_000);
  graph.startProbe();
  setEmbeddingQueue(config.embeddings.mode !== 'off');
  // The embedded engine of `npm start` (GKS_EMBEDDINGS_PORT) or EMBEDDINGS_URL, for `gks reembed`.
  const local = localEmbeddingsUrls(config.embeddings);
  const embedder = createEmbedder(config.embeddings, local.url, local.queryUrl);
  embedder?.startProbe();
  const worker = await startWorker(
    {
      address,
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      security: config.temporal.security,
    },
    { graph, config, embedder, logger },
    (line) => logger.warn(line),
  );
  // The webhook outbox is dispatched where workflows run (docs/webhooks.md).
  const gateway = gatewayFromConfig(config, graph);
  const dispatcher = new WebhookDispatcher(
    graph,
    config,
    () => gateway.getClient(),
    (err, line) => logger.warn({ err }, line),
  );
  dispatcher.start();
  process.stdout.write(`worker polling ${config.temporal.taskQueue} on ${address} (Neo4j ${uri})\n`);
  const stop = async () => {
    await dispatcher.stop();
    await worker.stop();
    await gateway.close();
    embedder?.stopProbe();
    await graph.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  await worker.done;
}

main().catch((error: unknown) => {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`${error instanceof ConfigError ? error.message : detail}\n`);
  process.exit(1);
});
