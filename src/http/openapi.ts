// Assembles the OpenAPI 3.1.0 document from the route declarations: the same JSON Schemas ajv
// compiles to validate requests are the ones published, so the two cannot drift.
import { ERROR_CATALOGUE, type ErrorCode } from '../errors/catalogue.js';
import type { JsonSchema, RouteSpec } from './route.js';
import { SCOPES } from '../auth/scopes.js';
import { IDEMPOTENCY_KEY_PATTERN } from './idempotency.js';
import { BOOKMARK_HEADER, BOOKMARK_TOKEN_PATTERN, MAX_BOOKMARKS } from '../db/bookmarks.js';

const BOOKMARK_DESCRIPTION =
  'Causal consistency across requests and API processes (docs/operations.md, "Consistency across requests"). ' +
  'An opaque token naming the graph state a request saw or wrote; a later request, to any process of the ' +
  'deployment, may send it back, and its reads and writes then see at least that state (on a Neo4j cluster, a ' +
  'read routed to a follower waits until the follower holds it).';

/** One token or several, separated by commas; or an empty value, taken as no header (as a proxy may send it). */
const ONE_TOKEN = BOOKMARK_TOKEN_PATTERN.slice(1, -1);
const BOOKMARK_LIST_PATTERN = `^(?:${ONE_TOKEN}(?: *, *${ONE_TOKEN}){0,${MAX_BOOKMARKS - 1}})?$`;

/** The bookmark a request may send back: an earlier answer's X-Graph-Bookmark (several: comma-separated). */
const BOOKMARK_PARAMETER = {
  name: BOOKMARK_HEADER,
  in: 'header',
  required: false,
  schema: { type: 'string', maxLength: 20_000, pattern: BOOKMARK_LIST_PATTERN },
  description:
    `${BOOKMARK_DESCRIPTION} Up to ${MAX_BOOKMARKS} tokens separated by commas, each as answered ` +
    `(${BOOKMARK_TOKEN_PATTERN}); an empty value is as no header. A token this deployment did not answer ` +
    'is a 400 invalid_request naming /headers/x-graph-bookmark; a state the database has not reached within ' +
    'its bookmark wait is a 503 graph_unavailable with Retry-After.',
};

/** The bookmark every authenticated answer that read or wrote the graph carries. */
const BOOKMARK_RESPONSE_HEADER = {
  [BOOKMARK_HEADER]: {
    description: `${BOOKMARK_DESCRIPTION} Present when the request ran a graph transaction.`,
    schema: { type: 'string', pattern: BOOKMARK_TOKEN_PATTERN },
  },
};

const ERROR_BODY: JsonSchema = {
  type: 'object',
  required: ['code', 'message', 'details'],
  additionalProperties: false,
  properties: {
    code: { type: 'string', enum: Object.keys(ERROR_CATALOGUE) },
    message: { type: 'string' },
    details: {
      type: 'object',
      description:
        'Context for the error. For invalid_request, fields lists each bad field by JSON pointer (/body/..., ' +
        '/query/...) with the reason.',
      properties: {
        fields: {
          type: 'array',
          items: {
            type: 'object',
            required: ['field', 'reason'],
            additionalProperties: false,
            properties: { field: { type: 'string' }, reason: { type: 'string' } },
          },
        },
      },
    },
  },
};

export const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  required: ['error', 'request_id'],
  additionalProperties: false,
  properties: {
    error: ERROR_BODY,
    request_id: { type: 'string' },
  },
};

/**
 * Every status an operation can answer: its own errors plus what the shared layers add. Any
 * authenticated route: 401, 403 (project not allowed to the key, or a missing scope), 429 and 503
 * (the key is looked up in Neo4j), checked before the body is read or validated. Any route with a body
 * method: 413, 415. Any route: 400 (its inputs, or a request the HTTP parser cannot read:
 * src/http/unreadable.ts) and 500. Path parameters or a project_id input: 404. Idempotent routes: 409
 * idempotency_conflict.
 */
/** A body may be left out (it reads as {}) only when nothing in its schema asks for a field. */
function bodyRequired(route: RouteSpec): boolean {
  const body = route.body ?? {};
  const required = (body.required as string[] | undefined) ?? [];
  return (
    required.length > 0 ||
    route.multipart === true ||
    Number(body.minProperties ?? 0) > 0 ||
    ['anyOf', 'oneOf', 'allOf', 'if', 'not'].some((k) => k in body)
  );
}

export function commonErrors(route: RouteSpec): ErrorCode[] {
  const authenticated = route.auth !== false;
  const hasBody = route.method !== 'get';
  const hasPathParams = route.path.includes('/:');
  // An organization key naming a project that is not one of its own gets a 404 (as unknown).
  const namesProject = [route.body, route.query].some((schema) =>
    Boolean((schema?.properties as Record<string, unknown> | undefined)?.project_id),
  );
  return [
    ...new Set<ErrorCode>([
      ...route.errors,
      ...(authenticated ? (['unauthorized', 'forbidden', 'rate_limited', 'graph_unavailable'] as const) : []),
      // Any request may be unreadable (a malformed request line or header: src/http/unreadable.ts), and an
      // authenticated one may send a malformed X-Graph-Bookmark.
      'invalid_request',
      ...(hasBody ? (['payload_too_large', 'unsupported_media_type'] as const) : []),
      ...((hasPathParams || namesProject) && authenticated ? (['not_found'] as const) : []),
      ...(route.idempotent ? (['idempotency_conflict'] as const) : []),
      'internal_error',
    ]),
  ];
}

/** Response schemas built by governedWriteSchema carry this marker (their 409 is the failed write). */
export const GOVERNED_WRITE_MARK = 'x-governed-write';

function isGovernedWrite(schema: JsonSchema): boolean {
  return schema[GOVERNED_WRITE_MARK] === true;
}

function failedGovernedWrite(success: JsonSchema): JsonSchema {
  const { [GOVERNED_WRITE_MARK]: _mark, ...rest } = success;
  const properties = (rest.properties ?? {}) as Record<string, JsonSchema>;
  return {
    ...rest,
    description:
      'The governed-write result of a write that failed: nothing was written; the failed delta is kept for audit.',
    required: [...new Set([...((rest.required as string[] | undefined) ?? []), 'error'])],
    properties: {
      ...properties,
      id: { type: 'null' },
      status: { const: 'failed' },
      applied: { const: false },
      error: ERROR_BODY,
    },
  };
}

/**
 * The file part of an upload. Its format is read from the bytes (src/documents/ingest/extractText.ts), so
 * the rule is said in words: JSON Schema cannot tell text bytes from other bytes.
 */
const FILE_PART: JsonSchema = {
  type: 'string',
  contentMediaType: 'application/octet-stream',
  description:
    'The file to index: text (UTF-8 or UTF-16; plain text, Markdown, HTML or JSON) or a PDF. The format is ' +
    "read from the bytes, then the file name, then the part's Content-Type. Other binary content (a NUL " +
    'byte in the first 8 KiB and no PDF header) is refused with 400 invalid_request naming /body/file.',
};

/** A multipart request: one file part named file and the route's text fields, nothing else. */
export function multipartSchema(route: RouteSpec, withFile = true): JsonSchema {
  return {
    type: 'object',
    required: withFile ? ['file'] : [],
    additionalProperties: false,
    properties: {
      ...(withFile ? { file: FILE_PART } : {}),
      ...(route.multipartFields ?? {}),
    },
  };
}

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

function parameters(route: RouteSpec): unknown[] {
  const out: unknown[] = [];
  const add = (schema: JsonSchema | undefined, where: 'path' | 'query') => {
    const props = (schema?.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema?.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries(props)) {
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        schema: prop,
        ...(prop.description ? { description: prop.description } : {}),
      });
    }
  };
  if (route.params) add(route.params, 'path');
  else
    for (const m of route.path.matchAll(/:([A-Za-z_]+)/g))
      out.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  add(route.query, 'query');
  if (route.auth !== false) out.push(BOOKMARK_PARAMETER);
  if (route.idempotent) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source },
      description:
        'Optional, 1 to 255 visible ASCII characters. Replays the first response (status and body) for 24 h; ' +
        'another body with the same key, or a retry while the first request still runs, is a 409 ' +
        'idempotency_conflict.',
    });
  }
  return out;
}

export function buildOpenApi(routes: RouteSpec[], serverUrl?: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const p = openApiPath(route.path);
    const errorCodes = commonErrors(route);
    const headers = route.auth !== false ? { headers: BOOKMARK_RESPONSE_HEADER } : {};
    const responses: Record<string, unknown> = {
      [String(route.status)]: {
        description: 'Success',
        ...headers,
        content: { 'application/json': { schema: route.response } },
      },
    };
    for (const extra of route.alsoResponds ?? []) {
      responses[String(extra.status)] = {
        description: extra.description,
        ...headers,
        content: { 'application/json': { schema: extra.schema } },
      };
    }
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of errorCodes) {
      const status = ERROR_CATALOGUE[code].status;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    for (const [status, codes] of [...byStatus.entries()].sort((a, b) => a[0] - b[0])) {
      const description = codes.map((c) => `${c}: ${ERROR_CATALOGUE[c].description}`).join(' | ');
      const error = { $ref: '#/components/schemas/Error' };
      const failedWrite = status === 409 && isGovernedWrite(route.response);
      // A status the route also answers with its own body (alsoResponds) keeps that body beside the envelope.
      const own = responses[String(status)] as
        { description: string; content: { 'application/json': { schema: JsonSchema } } } | undefined;
      const alternative = failedWrite ? failedGovernedWrite(route.response) : own?.content['application/json'].schema;
      responses[String(status)] = {
        description: failedWrite
          ? 'A governed write that could not be applied answers the governed-write result with status ' +
            `"failed", id null and error {code, message, details}. Otherwise: ${description}`
          : own
            ? `${own.description}. Otherwise: ${description}`
            : description,
        content: { 'application/json': { schema: alternative ? { oneOf: [alternative, error] } : error } },
        // A failed governed write, or the route's own answer beside the errors, read or wrote the graph.
        ...(alternative ? headers : {}),
        ...(status === 429
          ? {
              headers: {
                'Retry-After': {
                  description: 'Seconds to wait before retrying.',
                  schema: { type: 'integer', minimum: 1 },
                },
              },
            }
          : {}),
      };
    }
    const content: Record<string, unknown> = {};
    if (route.body) content['application/json'] = { schema: route.body };
    if (route.multipart) {
      content['multipart/form-data'] = { schema: multipartSchema(route) };
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
      ...(Object.keys(content).length ? { requestBody: { required: bodyRequired(route), content } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Governed Knowledge Graph Service',
      version: '1.0.0',
      description:
        'HTTP/JSON API over a governed knowledge graph in Neo4j. Every write is staged as a reviewable ' +
        'delta. See the README for decisions where the specification was silent.',
    },
    servers: [{ url: serverUrl ?? 'http://127.0.0.1:8080' }],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: `API keys begin with gks_. Scopes: ${SCOPES.join(', ')}.`,
        },
      },
      schemas: { Error: ERROR_ENVELOPE },
    },
  };
}
