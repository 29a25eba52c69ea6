// Koa middleware for ops: times every request under its route template (never the raw path, so ids
// do not explode the label set) and serves the Prometheus text at GET /metrics when enabled.
import type { Middleware } from 'koa';
import type { ApiState } from '../http/route.js';
import { httpDuration, httpRequests, registry } from './metrics.js';

export function httpMetrics(serveMetrics: boolean): Middleware<ApiState> {
  return async (ctx, next) => {
    const began = performance.now();
    if (serveMetrics && ctx.path === '/metrics' && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.set('Content-Type', registry.contentType);
      ctx.body = await registry.metrics();
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
