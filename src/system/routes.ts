// Public operational routes: liveness, readiness (Neo4j and Temporal reachable) and the OpenAPI document.
import type { Deps } from '../http/deps.js';
import { defineRoutes, type RouteSpec } from '../http/route.js';
import { buildOpenApi } from '../http/openapi.js';

export function systemRoutes(deps: Deps, allRoutes: () => RouteSpec[]): RouteSpec[] {
  let document: Record<string, unknown> | undefined;
  const status = { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] };
  return defineRoutes([
    {
      method: 'get', path: '/healthz', operationId: 'healthz', tag: 'System', summary: 'Process is alive', auth: false,
      status: 200, response: status, errors: [],
      handler: async () => ({ body: { status: 'ok' } }),
    },
    {
      method: 'get', path: '/readyz', operationId: 'readyz', tag: 'System', summary: 'Neo4j and Temporal are reachable', auth: false,
      status: 200,
      response: { type: 'object', properties: { status: { type: 'string' }, neo4j: { type: 'boolean' }, temporal: { type: 'boolean' } } },
      errors: ['graph_unavailable'],
      handler: async () => {
        const [neo4j, temporal] = await Promise.all([deps.graph.ping(), deps.temporal.ping()]);
        const ready = neo4j && temporal;
        return { status: ready ? 200 : 503, body: { status: ready ? 'ready' : 'unavailable', neo4j, temporal } };
      },
    },
    {
      method: 'get', path: '/v1/openapi.json', operationId: 'getOpenApi', tag: 'System', summary: 'The OpenAPI 3.1.0 description of this interface', auth: false,
      status: 200, response: { type: 'object' }, errors: [],
      handler: async () => {
        document ??= buildOpenApi(allRoutes());
        return { body: document, raw: true };
      },
    },
  ]);
}
