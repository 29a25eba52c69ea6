// A route is declared once: method, path, scope, JSON Schemas of its inputs and outputs, and the
// errors it may answer. The same declaration drives ajv validation and the OpenAPI document.
import type { ParameterizedContext } from 'koa';
import type { ErrorCode } from '../errors/catalogue.js';
import type { Scope } from '../auth/scopes.js';
import type { AuthContext } from '../auth/keys.js';
import type { JSONSchema } from 'json-schema-to-ts';
import type { Answer, Known } from './answer.js';

export type JsonSchema = Record<string, unknown>;

export interface ApiState {
  requestId: string;
  auth?: AuthContext;
  startedAt: number;
  routeName?: string;
  /** The matched route's operationId (response audit in tests and fuzzing). */
  operationId?: string;
  /** Raw request bytes (a streamed upload: their SHA-256 digest), kept for idempotency fingerprints. */
  rawBody?: Buffer;
  /** Set when the route accepts multipart and the request used it. */
  upload?: UploadedFile;
  /** Set on a request an MCP tool call dispatched in process (src/mcp/dispatch.ts): its deltas record origin mcp. */
  via?: 'mcp';
}

export interface UploadedFile {
  filename: string;
  mimeType: string;
  data: Buffer;
  fields: Record<string, string>;
}

export type ApiContext = ParameterizedContext<ApiState> & {
  params: Record<string, string>;
  request: { body?: unknown };
};

export interface HandlerResult<B = Record<string, unknown>> {
  status?: number;
  body: B;
  headers?: Record<string, string>;
  /** Send body as is, without request_id (the OpenAPI document). */
  raw?: boolean;
}

export interface RouteSpec {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Koa-style path: /v1/memories/:id */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** Scope required; undefined with auth false means public. */
  scope?: Scope;
  auth?: boolean;
  body?: JsonSchema;
  /** Also accept multipart/form-data with one file part named "file". */
  multipart?: boolean;
  /** The text fields a multipart request may carry beside the file (validated instead of body). */
  multipartFields?: Record<string, JsonSchema>;
  query?: JsonSchema;
  params?: JsonSchema;
  status: number;
  response: JsonSchema;
  /** Other success responses (e.g. a dry run's 200 beside a start's 202). */
  alsoResponds?: { status: number; description: string; schema: JsonSchema }[];
  errors: readonly ErrorCode[];
  /** Writing POSTs honour Idempotency-Key. */
  idempotent?: boolean;
  /**
   * How the idempotency record keeps an idempotent route's successful answer, and the answer a replay gives back
   * from it; without it the answer is kept as it is. An answer holding a secret keeps it sealed (webhooks).
   */
  idempotentRecord?: IdempotentRecord;
  /**
   * Every effect of the handler is a graph transaction (no workflow started, nothing sent out before its first
   * transaction): a key known valid is then checked in that transaction, pipelined, instead of by a read of its
   * own before the handler (src/auth/keys.ts, KnownKeyCache). Revocation stays immediate either way.
   */
  keyInTransaction?: boolean;
  handler: (ctx: ApiContext) => Promise<HandlerResult>;
}

export interface IdempotentRecord {
  /** What the record keeps of the answer's body (JSON-serialisable). */
  keep(body: Record<string, unknown>): Record<string, unknown>;
  /** The body a replay answers, from what the record kept. */
  replay(kept: Record<string, unknown>): Record<string, unknown>;
}

export function defineRoutes(routes: RouteSpec[]): RouteSpec[] {
  return routes;
}

/** A route whose handler's answer is typed from its response schema (and those of alsoResponds). */
export type TypedRouteSpec<R extends JSONSchema, A extends JSONSchema> = Omit<
  RouteSpec,
  'response' | 'alsoResponds' | 'handler'
> & {
  response: NoInfer<R>;
  alsoResponds?: { status: number; description: string; schema: NoInfer<A> }[];
  handler: (ctx: ApiContext) => Promise<HandlerResult<Known<Answer<R> | Answer<A>>>>;
};

/**
 * Declares one route whose answer is checked against its published response schema: a field of the wrong type
 * (null for a string, any string for an enum), or a required one missing, fails typecheck. The schema's type is
 * given, not inferred (`route<typeof schema>({ ... response: schema ... })`): inferring it from the literal
 * would leave the handler without its answer type while it is checked (json-schema-to-ts types are too deep
 * for the inference pass, and the literals in the answer would widen). Without it, R is never and no answer
 * typechecks. A field the schema does not declare is caught by the exactness check of src/http/answer.ts.
 */
export function route<R extends JSONSchema = never, A extends JSONSchema = never>(
  spec: TypedRouteSpec<R, A>,
): RouteSpec {
  // The answer type is the schema's own, so the route table's looser handler type holds it.
  return spec as unknown as RouteSpec;
}
