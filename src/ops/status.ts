// What ops see of this process: dependency health (Neo4j, Temporal), the engines it supervises and
// its Temporal worker. /readyz shows the public part; GET /v1/status (admin) shows all of it.
import type { EngineStatus } from '../runtime/supervisor.js';
import type { RuntimeDeps, WorkerStatus } from '../runtime/parts.js';
import type { GraphDeps, TemporalDeps } from '../shared/deps.js';
import type { HealthSnapshot } from './health.js';
import { engineHealth } from '../embeddings/status.js';

const startedAt = new Date();

export interface OpsStatus {
  ready: boolean;
  dependencies: { neo4j: HealthSnapshot; temporal: HealthSnapshot };
  /** The embedding engine as requests meet it; null when recall is lexical only (EMBEDDINGS=off). */
  embeddings: HealthSnapshot | null;
  engines: EngineStatus[];
  worker: WorkerStatus | null;
  started_at: string;
  uptime_seconds: number;
}

/**
 * Reports the health states as requests meet them (kept current by the probes and by failed calls),
 * not a probe of its own: /readyz then agrees with what the API answers, and a single slow answer
 * on a loaded machine does not flip it.
 */
export function opsStatus(deps: GraphDeps & TemporalDeps & RuntimeDeps): OpsStatus {
  const gateway = deps.temporal;
  const neo4j = deps.graph.health.isUp();
  const temporal = gateway.health.isUp();
  const engines = deps.runtime.engines.map((e) => e.status());
  const { worker } = deps.runtime;
  return {
    ready: neo4j && temporal,
    dependencies: { neo4j: deps.graph.health.snapshot(), temporal: gateway.health.snapshot() },
    embeddings: engineHealth(deps.runtime.embeddings),
    engines,
    worker: worker ? worker.status() : null,
    started_at: startedAt.toISOString(),
    uptime_seconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
  };
}

/** The public view: up or down and since when, engine states and restart counts; no error texts or pids. */
export function publicReadiness(status: OpsStatus) {
  const dep = (h: HealthSnapshot) => ({ status: h.status, since: h.since });
  return {
    status: status.ready ? ('ready' as const) : ('unavailable' as const),
    neo4j: status.dependencies.neo4j.status === 'up',
    temporal: status.dependencies.temporal.status === 'up',
    dependencies: { neo4j: dep(status.dependencies.neo4j), temporal: dep(status.dependencies.temporal) },
    // Not part of readiness: writes never wait for embeddings and search answers lexically without them.
    embeddings: status.embeddings ? dep(status.embeddings) : { status: 'off' as const, since: startedAt.toISOString() },
    engines: status.engines.map((e) => ({ name: e.name, state: e.state, since: e.since, restarts: e.restarts })),
  };
}
