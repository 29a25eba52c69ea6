// Runs one /v1 request through the Koa application in this process, without a socket: the whole
// middleware chain (request id, envelope, address and key rate limits, authentication, body limit,
// validation, idempotency, metrics) exactly as for a request from the network, and the answer read
// from the context (status and body object) instead of being serialised and parsed again.
import http from 'node:http';
import { Readable } from 'node:stream';
import type Koa from 'koa';
import type { ApiState } from '../http/route.js';
import type { ApiAnswer, ApiCall } from './call.js';

/** Who the in-process request comes from: the MCP request's own peer address and the session's key. */
export interface Caller {
  authorization: string;
  remoteAddress: string;
}

type Middleware = (ctx: Koa.ParameterizedContext<ApiState>, next: () => Promise<void>) => unknown;

function runChain(middleware: readonly Middleware[], ctx: Koa.ParameterizedContext<ApiState>): Promise<void> {
  const dispatch = (i: number): Promise<void> => {
    const fn = middleware[i];
    return fn ? Promise.resolve(fn(ctx, () => dispatch(i + 1))).then(() => undefined) : Promise.resolve();
  };
  return dispatch(0);
}

/** A request object the Koa context and the body reader accept: a readable of the JSON bytes with headers. */
function requestOf(method: string, url: string, headers: Record<string, string>, body: Buffer | null, caller: Caller) {
  const req = Readable.from(body ? [body] : []) as unknown as http.IncomingMessage;
  Object.assign(req, {
    method,
    url,
    headers,
    httpVersion: '1.1',
    httpVersionMajor: 1,
    httpVersionMinor: 1,
    socket: { remoteAddress: caller.remoteAddress, encrypted: false },
  });
  return req;
}

export function inProcessCall(app: () => Koa<ApiState>, caller: Caller, via: 'mcp'): ApiCall {
  return async (method, path, body): Promise<ApiAnswer> => {
    const koa = app();
    const bytes = body ? Buffer.from(JSON.stringify(body)) : null;
    const headers: Record<string, string> = { authorization: caller.authorization, host: 'in-process' };
    if (bytes) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(bytes.length);
    }
    const req = requestOf(method, path, headers, bytes, caller);
    const res = new http.ServerResponse(req);
    const ctx = koa.createContext<ApiState>(req, res);
    // Read by actorFor: deltas written by this request record origin mcp (never settable by a header).
    ctx.state.via = via;
    try {
      await runChain(koa.middleware as unknown as Middleware[], ctx);
    } catch {
      // The envelope turns every failure into an answer; reaching here is a bug, answered as one.
      return { status: 500, body: { error: { code: 'internal_error', message: 'The tool call failed.' } } };
    }
    const out = ctx.body;
    const json =
      out && typeof out === 'object' && !Buffer.isBuffer(out) && !(out instanceof Readable)
        ? (JSON.parse(JSON.stringify(out)) as Record<string, unknown>)
        : {};
    return { status: ctx.status, body: json };
  };
}
