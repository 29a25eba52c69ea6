// Builds the running service from endpoints: graph (schema applied), Temporal gateway, API server
// and optionally the worker. Used by `npm start` and by the tests, so both run the same service.
import { closeMcpSessions } from './mcp/http.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import type { Config } from './config/config.js';
import { loggerOptions } from './config/logging.js';
import { Graph, waitForGraph } from './db/graph.js';
import { applySchema } from './db/schema.js';
import { PLAN_CHECK_INTERVAL_MS, PreflightPlanKeeper } from './preflight/plans.js';
import { buildApp } from './http/app.js';
import { answerUnreadableRequests } from './http/unreadable.js';
import type { Deps } from './http/deps.js';
import { allRoutes } from './routes.js';
import { TemporalGateway } from './temporal/connection.js';
import { startWorker, type RunningWorker } from './temporal/worker.js';
import type { EngineSupervisor } from './runtime/supervisor.js';
import { prepareVectorIndexes, checkAnsweredDimensions } from './embeddings/schema.js';
import { setEmbeddingQueue } from './embeddings/queue.js';
import { createEmbedder } from './embeddings/setup.js';
import { readBacklog } from './embeddings/status.js';
import { mentionBatchSize, MENTIONS_BACKLOG, MentionWorker } from './memories/mentionWorker.js';
import { warmReads } from './search/warmReads.js';
import { ReadPlanKeeper } from './search/readPlans.js';
import { DrainPacer, liveTraffic } from './shared/pacing.js';
import { EmbeddingWorker } from './embeddings/worker.js';
import { WebhookDispatcher } from './webhooks/dispatch.js';
import { setEmbeddingBacklogSource, setMentionBacklogSource, trackDependency } from './ops/metrics.js';
import type { DependencyHealth } from './ops/health.js';

export interface Service {
  deps: Deps;
  gateway: TemporalGateway;
  server: http.Server;
  url: string;
  worker: RunningWorker | undefined;
  /** Hands webhook events to delivery workflows; runs with the worker. */
  dispatcher: WebhookDispatcher | null;
  /** Plans the preflight checks off the request path (src/preflight/plans.ts). */
  preflightPlans: PreflightPlanKeeper;
  /** The read paths' rehearsal after start (src/search/warmReads.ts): how many reads it ran. */
  readsWarmed: Promise<number>;
  close(): Promise<void>;
}

/** Dependency health goes to the metrics and, on every change, to the log. */
function watchHealth(health: DependencyHealth, logger: Logger): void {
  trackDependency(health);
  health.onChange((up) => {
    const { since, last_error } = health.snapshot();
    if (up) logger.warn({ dependency: health.name, since }, `${health.name} is reachable again`);
    else
      logger.error(
        { dependency: health.name, since, err: last_error },
        `${health.name} is unreachable; requests needing it answer 503 until it is back`,
      );
  });
}

export async function startService(
  config: Config,
  endpoints: {
    neo4jUri: string;
    /** A local engine's generated login; without it the configured NEO4J_USER / NEO4J_PASSWORD. */
    neo4jAuth?: { user: string; password: string } | null;
    temporalAddress: string;
    supervisors?: EngineSupervisor[];
    /** The Temporal Web UI of the engines this process started (the review console links workflows there). */
    temporalUiUrl?: string | null;
    /** The embedded engine's OpenAI-compatible base URL, when this process started one. */
    embeddingsUrl?: string | null;
    /** The embedded engine for questions alone, when this process started one. */
    embeddingsQueryUrl?: string | null;
  },
  options: {
    worker: boolean;
    port?: number;
    logger?: Logger;
    /** The embedding worker drains the vector queue in this process (default true when there is an embedder). */
    embeddingWorker?: boolean;
    /** Rehearse the read paths again as the graph grows (src/search/readPlans.ts; default true). */
    readPlans?: boolean;
  },
): Promise<Service> {
  const logger = options.logger ?? pino(loggerOptions(config.logLevel));
  const graph = new Graph({
    uri: endpoints.neo4jUri,
    user: endpoints.neo4jAuth?.user ?? config.neo4j.user,
    password: endpoints.neo4jAuth?.password ?? config.neo4j.password,
    database: config.neo4j.database,
    connectTimeoutMs: config.neo4j.connectTimeoutMs,
    poolSize: config.neo4j.poolSize,
  });
  const neo4jSupervisor = endpoints.supervisors?.find((s) => s.name === 'neo4j');
  if (neo4jSupervisor) graph.gateOn(() => neo4jSupervisor.status().state === 'running');
  await waitForGraph(graph, 60_000);
  await applySchema(graph);
  const indexes = await prepareVectorIndexes(graph, config.embeddings);
  setEmbeddingQueue(config.embeddings.mode !== 'off');
  const settings = {
    address: endpoints.temporalAddress,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    security: config.temporal.security,
  };
  const gateway = new TemporalGateway(settings, () => graph.bookmarks.getBookmarks());
  const embedder = createEmbedder(config.embeddings, endpoints.embeddingsUrl, endpoints.embeddingsQueryUrl ?? null);
  if (embedder) {
    // An endpoint answering another dimension than the indexes hold is refused before serving; one
    // that cannot be reached now does not stop the start (vectors follow once it answers).
    const answered = await embedder.answeredDimensions();
    if (answered !== null) checkAnsweredDimensions(embedder.model, answered);
  }
  const deps: Deps = {
    graph,
    config,
    logger,
    temporal: gateway,
    embedder,
    runtime: { engines: endpoints.supervisors ?? [], temporalUiUrl: endpoints.temporalUiUrl ?? null },
  };
  for (const health of [graph.health, gateway.health]) watchHealth(health, logger);
  const embeddingWorker =
    embedder && options.embeddingWorker !== false
      ? new EmbeddingWorker(graph, embedder, logger, {
          batchSize: config.embeddings.batchSize,
          // Live requests first: the backlog drains in the quiet moments (docs/embeddings.md, "Pacing").
          pacer: new DrainPacer(liveTraffic),
        })
      : null;
  deps.runtime.embeddings = { config: config.embeddings, embedder, worker: embeddingWorker, indexes };
  // Recall's hops: the terms memories mention, read off the request path where vectors are made (it needs no engine).
  const mentionWorker =
    options.embeddingWorker !== false
      ? new MentionWorker(graph, logger, {
          batchSize: mentionBatchSize(config.embeddings.batchSize),
          pacer: new DrainPacer(liveTraffic),
        })
      : null;
  deps.runtime.mentions = mentionWorker;
  if (embedder) watchHealth(embedder.health, logger);
  // The queues' gauges in /metrics, read at scrape time (embeddings/backlog, memories/terms_backlog).
  const queueReading = (statement?: string) => async () => {
    const backlog = await readBacklog(graph, statement);
    return { count: backlog.count, oldestAgeSeconds: backlog.oldest_age_seconds };
  };
  setEmbeddingBacklogSource(queueReading());
  setMentionBacklogSource(queueReading(MENTIONS_BACKLOG));
  const preflightPlans = new PreflightPlanKeeper(graph, logger, PLAN_CHECK_INTERVAL_MS, embedder?.model ?? null);
  preflightPlans.start();
  graph.startProbe();
  gateway.startProbe();
  embedder?.startProbe();
  embeddingWorker?.start();
  mentionWorker?.start();
  const app = buildApp(deps, allRoutes(deps));
  const worker = options.worker
    ? await startWorker(settings, { graph, config, logger, embedder }, (line) => logger.warn(line))
    : undefined;
  if (worker) deps.runtime.worker = worker;
  // Requests come once the keeper's start round has planned the preflight checks and rehearsed the review
  // (src/preflight/plans.ts), run beside the worker's start: the first audit or apply meets no cold plan.
  await preflightPlans.tick();
  // The webhook outbox is dispatched where workflows run (docs/webhooks.md).
  const dispatcher = options.worker
    ? new WebhookDispatcher(
        graph,
        config,
        () => gateway.getClient(),
        (err, line) => logger.warn({ err }, line),
      )
    : null;
  dispatcher?.start();
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 5_000;
  answerUnreadableRequests(server, logger);
  await new Promise<void>((resolve) => server.listen(options.port ?? config.port, config.host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host}:${port}`;
  // The read paths meet their statements once now, beside the first requests (src/search/warmReads.ts): the first
  // searches and compiles of a stored graph then meet no cold plan, and the service does not wait 10-15 s for it.
  let closing = false;
  const readsWarmed = warmReads(deps, logger, { stopped: () => closing });
  // And again off the request path whenever the graph's statistics have moved enough for Neo4j to plan them anew
  // (src/search/readPlans.ts).
  const readPlans = options.readPlans !== false ? new ReadPlanKeeper(deps, logger, liveTraffic) : null;
  readPlans?.start(readsWarmed);
  const service: Service = {
    deps,
    gateway,
    server,
    url,
    worker,
    dispatcher,
    preflightPlans,
    readsWarmed,
    async close() {
      closing = true;
      await readsWarmed;
      await readPlans?.stop();
      // Stop accepting, let in-flight requests finish, then stop the worker and close connections.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Open MCP sessions hold a GET stream each: end them, then their connections are idle too.
        void closeMcpSessions(app).finally(() => server.closeIdleConnections());
      });
      // The ones the service holds now (a test may have replaced them to show a restart loses nothing).
      await service.dispatcher?.stop();
      await service.worker?.stop();
      await embeddingWorker?.stop();
      await mentionWorker?.stop();
      await preflightPlans.stop();
      embedder?.stopProbe();
      await gateway.close();
      await graph.close();
    },
  };
  return service;
}
