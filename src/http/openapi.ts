// Assembles the OpenAPI 3.1.0 document from the route declarations: the same JSON Schemas ajv
// compiles to validate requests are the ones published, so the two cannot drift.
import { ERROR_CATALOGUE, type ErrorCode } from '../errors/catalogue.js';
import type { JsonSchema, RouteSpec } from './route.js';
import { SCOPES } from '../auth/scopes.js';

export const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  required: ['error', 'request_id'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
        message: { type: 'string' },
        details: {
          type: 'object',
          description: 'Context for the error. For invalid_request, fields lists each bad field by JSON pointer (/body/..., /query/...) with the reason.',
          properties: {
            fields: {
              type: 'array',
              items: { type: 'object', required: ['field', 'reason'], properties: { field: { type: 'string' }, reason: { type: 'string' } } },
            },
          },
        },
      },
    },
    request_id: { type: 'string' },
  },
};

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

function parameters(route: RouteSpec): unknown[] {
  const out: unknown[] = [];
  const add = (schema: JsonSchema | undefined, where: 'path' | 'query') => {
    const props = (schema?.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema?.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries(props)) {
      out.push({ name, in: where, required: where === 'path' || required.has(name), schema: prop, ...(prop.description ? { description: prop.description } : {}) });
    }
  };
  if (route.params) add(route.params, 'path');
  else for (const m of route.path.matchAll(/:([A-Za-z_]+)/g)) out.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  add(route.query, 'query');
  if (route.idempotent) {
    out.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 }, description: 'Replays the first response for 24 h; another body with the same key is a 409 idempotency_conflict.' });
  }
  return out;
}

export function buildOpenApi(routes: RouteSpec[], serverUrl?: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const p = openApiPath(route.path);
    const errorCodes: ErrorCode[] = [...new Set<ErrorCode>([
      ...route.errors,
      ...(route.auth === false ? [] : (['unauthorized', 'rate_limited'] as ErrorCode[])),
      // Authentication reads the graph: any authenticated route answers 503 while Neo4j is down.
      ...(route.auth === false ? [] : (['graph_unavailable'] as ErrorCode[])),
      ...(route.scope ? (['forbidden'] as ErrorCode[]) : []),
      ...(route.body || route.query ? (['invalid_request'] as ErrorCode[]) : []),
      ...(route.body ? (['payload_too_large'] as ErrorCode[]) : []),
      'internal_error',
    ])];
    const responses: Record<string, unknown> = {
      [String(route.status)]: { description: 'Success', content: { 'application/json': { schema: route.response } } },
    };
    for (const extra of route.alsoResponds ?? []) {
      responses[String(extra.status)] = { description: extra.description, content: { 'application/json': { schema: extra.schema } } };
    }
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of errorCodes) {
      const status = ERROR_CATALOGUE[code].status;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    for (const [status, codes] of [...byStatus.entries()].sort((a, b) => a[0] - b[0])) {
      responses[String(status)] = {
        description: codes.map((c) => `${c}: ${ERROR_CATALOGUE[c].description}`).join(' | '),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const content: Record<string, unknown> = {};
    if (route.body) content['application/json'] = { schema: route.body };
    if (route.multipart) {
      content['multipart/form-data'] = {
        schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' }, title: { type: 'string' }, project_id: { type: 'string' }, tags: { type: 'string', description: 'comma-separated' } } },
      };
    }
    paths[p] ??= {};
    paths[p][route.method] = {
      operationId: route.operationId,
      tags: [route.tag],
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(route.auth === false ? { security: [] } : {}),
      ...(route.scope ? { 'x-required-scope': route.scope } : {}),
      parameters: parameters(route),
      ...(Object.keys(content).length ? { requestBody: { required: true, content } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Governed Knowledge Graph Service',
      version: '1.0.0',
      description: 'HTTP/JSON API over a governed knowledge graph in Neo4j. Every write is staged as a reviewable delta. See the README for decisions where the specification was silent.',
    },
    servers: [{ url: serverUrl ?? 'http://127.0.0.1:8080' }],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: `API keys begin with gks_. Scopes: ${SCOPES.join(', ')}.` },
      },
      schemas: { Error: ERROR_ENVELOPE },
    },
  };
}
