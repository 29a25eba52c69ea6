// The Prometheus metrics of this process (GET /metrics): HTTP requests per route template and status,
// dependency availability, engine restarts, loop starts and outcomes, credits spent. One registry per
// process; a separate `npm run worker` process keeps its own (loop outcomes and credits are counted
// where the loop's activities run).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'gks_' });

export const httpRequests = new Counter({
  name: 'gks_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'gks_http_request_duration_seconds',
  help: 'HTTP request latency in seconds, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  registers: [registry],
});

export const dependencyUp = new Gauge({
  name: 'gks_dependency_up',
  help: '1 while the dependency (neo4j, temporal) is reachable from this process, 0 while it is down',
  labelNames: ['dependency'] as const,
  registers: [registry],
});

export const dependencyOutages = new Counter({
  name: 'gks_dependency_outages_total',
  help: 'Times a dependency went from up to down',
  labelNames: ['dependency'] as const,
  registers: [registry],
});

export const engineRestarts = new Counter({
  name: 'gks_engine_restarts_total',
  help: 'Restarts of a supervised engine child process (neo4j, temporal) after it exited unexpectedly',
  labelNames: ['engine'] as const,
  registers: [registry],
});

export const engineUp = new Gauge({
  name: 'gks_engine_up',
  help: '1 while the supervised engine child process runs, 0 otherwise',
  labelNames: ['engine'] as const,
  registers: [registry],
});

export const preflightPlanEvents = new Counter({
  name: 'gks_preflight_plans_total',
  help: 'Times the preflight checks were planned off the request path, by reason (start, reconnect, resize)',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const readPlanRehearsals = new Counter({
  name: 'gks_read_plan_rehearsals_total',
  help: "Times the read paths were rehearsed again off the request path because the graph's statistics moved",
  registers: [registry],
});

export const workerRestarts = new Counter({
  name: 'gks_worker_restarts_total',
  help: 'Restarts of the in-process Temporal worker after it stopped or could not connect',
  registers: [registry],
});

export const loopStarts = new Counter({
  name: 'gks_loop_starts_total',
  help:
    'Loop start requests that got past validation, by kind and outcome (started, dispatch_unavailable, ' +
    'credits_exhausted, failed)',
  labelNames: ['kind', 'outcome'] as const,
  registers: [registry],
});

export const loopOutcomes = new Counter({
  name: 'gks_loop_outcomes_total',
  help: 'Loops finished by the worker of this process, by kind and final status',
  labelNames: ['kind', 'status'] as const,
  registers: [registry],
});

export const creditsSpent = new Counter({
  name: 'gks_credits_spent_total',
  help: 'Credits spent by loops settled in this process (each loop counted once)',
  registers: [registry],
});

/** Keeps a gauge in step with a dependency's health. */
export function trackDependency(health: {
  name: string;
  isUp(): boolean;
  onChange(l: (up: boolean) => void): void;
}): void {
  dependencyUp.set({ dependency: health.name }, health.isUp() ? 1 : 0);
  health.onChange((up) => {
    dependencyUp.set({ dependency: health.name }, up ? 1 : 0);
    if (!up) dependencyOutages.inc({ dependency: health.name });
  });
}

export const embeddingsEmbedded = new Counter({
  name: 'gks_embeddings_embedded_total',
  help: 'Nodes (memories, chunks, entities) given a vector by the embedding worker of this process',
  registers: [registry],
});

export const embeddingsQuestionCache = new Counter({
  name: 'gks_embeddings_question_cache_total',
  help: 'Questions looked up in the in-memory cache of question vectors, by result (hit: no engine call)',
  labelNames: ['result'],
  registers: [registry],
});

/** A queue in the graph as a scrape reads it: its size and its oldest entry's age. */
type QueueReading = { count: number; oldestAgeSeconds: number | null };

/**
 * Two gauges of a queue in the graph (its size and its oldest entry's age), read at scrape time from the source the
 * service that runs the queue's worker sets; while Neo4j is down they keep their last values (gks_dependency_up says
 * why). Answers the setter of the source.
 */
function queueGauges(name: string, help: string, ageHelp: string): (source: () => Promise<QueueReading>) => void {
  let source: (() => Promise<QueueReading>) | undefined;
  const age = new Gauge({ name: `${name}_oldest_age_seconds`, help: ageHelp, registers: [registry] });
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      const reading = await source?.().catch(() => undefined);
      if (reading) {
        this.set(reading.count);
        age.set(reading.oldestAgeSeconds ?? 0);
      }
    },
  });
  return (given) => {
    source = given;
  };
}

export const setEmbeddingBacklogSource = queueGauges(
  'gks_embeddings_backlog',
  'Memories, chunks and entities waiting for a vector (the embedding queue), read at scrape time',
  'Age of the oldest node waiting for a vector (0 when the queue is empty), read at scrape time',
);

export const setMentionBacklogSource = queueGauges(
  'gks_mentions_backlog',
  "Memories waiting for their terms (the mention worker's queue, recall's hops), read at scrape time",
  'Age of the oldest memory waiting for its terms (0 when the queue is empty), read at scrape time',
);

export const mcpToolCalls = new Counter({
  name: 'gks_mcp_tool_calls_total',
  help: 'MCP tool calls answered, by tool and outcome (ok, tool_error: the route answered 4xx/5xx)',
  labelNames: ['tool', 'outcome'] as const,
  registers: [registry],
});

export const mcpToolDuration = new Histogram({
  name: 'gks_mcp_tool_duration_seconds',
  help: 'MCP tool call latency in seconds (the route run in process included), by tool',
  labelNames: ['tool'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  registers: [registry],
});
