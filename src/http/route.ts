// A route is declared once: method, path, scope, JSON Schemas of its inputs and outputs, and the
// errors it may answer. The same declaration drives ajv validation and the OpenAPI document.
import type { ParameterizedContext } from 'koa';
import type { ErrorCode } from '../errors/catalogue.js';
import type { Scope } from '../auth/scopes.js';
import type { AuthContext } from '../auth/keys.js';

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

export interface HandlerResult {
  status?: number;
  body: Record<string, unknown>;
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
  handler: (ctx: ApiContext) => Promise<HandlerResult>;
}

export function defineRoutes(routes: RouteSpec[]): RouteSpec[] {
  return routes;
}
