// Public operational routes: liveness, readiness (which dependency is down since when, supervised
// engines) and the OpenAPI document.
import type { Deps } from '../http/deps.js';
import { defineRoutes, type RouteSpec, route } from '../http/route.js';
import { buildOpenApi } from '../http/openapi.js';
import { opsStatus, publicReadiness } from './status.js';
import { readinessSchema } from './schemas.js';

export function systemRoutes(deps: Deps, allRoutes: () => RouteSpec[]): RouteSpec[] {
  let document: Record<string, unknown> | undefined;
  const status = { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] } as const;
  const getOpenApiAnswer = { type: 'object' } as const;
  return defineRoutes([
    route<typeof status>({
      method: 'get',
      path: '/healthz',
      operationId: 'healthz',
      tag: 'System',
      summary: 'Process is alive',
      auth: false,
      status: 200,
      response: status,
      errors: [],
      handler: async () => ({ body: { status: 'ok' } }),
    }),
    route<typeof readinessSchema, typeof readinessSchema>({
      method: 'get',
      path: '/readyz',
      operationId: 'readyz',
      tag: 'System',
      summary: 'Neo4j and Temporal are reachable',
      auth: false,
      status: 200,
      description:
        'Public. Says which dependency is down and since when, and the state and restart count of each ' +
        'engine this process supervises. 503 while Neo4j or Temporal is unreachable.',
      response: readinessSchema,
      alsoResponds: [
        {
          status: 503,
          description: 'Not ready: the body says which dependency is down and since when',
          schema: readinessSchema,
        },
      ],
      errors: [],
      handler: async () => {
        const status = opsStatus(deps);
        return {
          status: status.ready ? 200 : 503,
          body: publicReadiness(status),
          ...(status.ready ? {} : { headers: { 'Retry-After': '2' } }),
        };
      },
    }),
    route<typeof getOpenApiAnswer>({
      method: 'get',
      path: '/v1/openapi.json',
      operationId: 'getOpenApi',
      tag: 'System',
      summary: 'The OpenAPI 3.1.0 description of this interface',
      auth: false,
      status: 200,
      response: getOpenApiAnswer,
      errors: [],
      handler: async () => {
        document ??= buildOpenApi(allRoutes());
        return { body: document, raw: true };
      },
    }),
  ]);
}
