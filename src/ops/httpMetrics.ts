// Koa middleware for ops: times every request under its route template (never the raw path, so ids
// do not explode the label set) and serves the Prometheus text at GET /metrics when enabled: to
// anyone on a loopback-only service, else only to the bearer of METRICS_TOKEN (docs/security.md).
import crypto from 'node:crypto';
import type { Middleware } from 'koa';
import type { ApiState } from '../http/route.js';
import { httpDuration, httpRequests, registry } from './metrics.js';

/** Who may read /metrics: anyone who reaches a loopback-only service; else the bearer of METRICS_TOKEN. */
export interface MetricsAccess {
  enabled: boolean;
  /** METRICS_TOKEN, or null. */
  token: string | null;
  /** The service listens on loopback only (HOST 127.x, ::1 or localhost). */
  loopbackOnly: boolean;
}

function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

/** Null when the request may read the metrics, else why not. */
function refusal(access: MetricsAccess, authorization: string): string | null {
  if (access.token === null)
    return access.loopbackOnly
      ? null
      : 'GET /metrics needs METRICS_TOKEN when the service listens beyond loopback; ' +
          'set it and send it as a bearer token.';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match?.[1] && sameSecret(match[1], access.token)
    ? null
    : 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.';
}

export function httpMetrics(access: MetricsAccess): Middleware<ApiState> {
  const serveMetrics = access.enabled;
  return async (ctx, next) => {
    const began = performance.now();
    if (serveMetrics && ctx.path === '/metrics' && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      const refused = refusal(access, ctx.get('Authorization'));
      if (refused) {
        ctx.status = 401;
        ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
        ctx.body = `${refused}\n`;
      } else {
        ctx.set('Content-Type', registry.contentType);
        ctx.body = await registry.metrics();
      }
    } else {
      await next();
    }
    // routeName is "GET /v1/memories/:id" once a route matched; everything else is one label.
    const route =
      ctx.state.routeName?.split(' ')[1] ?? (ctx.path === '/metrics' && serveMetrics ? '/metrics' : 'unmatched');
    const labels = { method: ctx.method, route, status: String(ctx.status) };
    httpRequests.inc(labels);
    httpDuration.observe(labels, (performance.now() - began) / 1000);
  };
}
