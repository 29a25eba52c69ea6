// Streamable HTTP at /mcp on the API's port: the same bearer keys, rate limit, request ids and
// metrics as the routes. Each session is bound to the key that opened it.
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ApiState, RouteSpec } from '../http/route.js';
import { ApiError } from '../errors/catalogue.js';
import { createMcpServer, type ApiCall } from './server.js';

interface Session {
  transport: StreamableHTTPServerTransport;
  keyId: string;
}

/** Routes a tool's request through the service's own HTTP API on loopback, as the caller's key. */
function loopbackCall(host: string, port: number, authorization: string): ApiCall {
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization,
        'x-gks-origin': 'mcp',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
}

export function mcpMiddleware(
  routes: () => RouteSpec[],
  guard: (ctx: Parameters<Middleware<ApiState>>[0]) => Promise<void>,
): Middleware<ApiState> {
  const sessions = new Map<string, Session>();
  return async (ctx, next) => {
    if (ctx.path !== '/mcp') return next();
    ctx.state.routeName = `${ctx.method} /mcp`;
    await guard(ctx); // authentication and rate limit, as for every route
    const auth = ctx.state.auth!;
    const sessionId = ctx.get('mcp-session-id');
    let session = sessionId ? sessions.get(sessionId) : undefined;
    if (sessionId && !session) throw new ApiError('not_found', 'Unknown or ended MCP session.', {});
    if (session && session.keyId !== auth.keyId) throw new ApiError('not_found', 'Unknown or ended MCP session.', {});
    let parsed: unknown;
    if (!session) {
      if (ctx.method !== 'POST') throw new ApiError('invalid_request', 'Open a session with an initialize POST.', {});
      parsed = await readJson(ctx.req);
      if (!isInitializeRequest(parsed)) {
        throw new ApiError('invalid_request', 'The first request of a session must be initialize.', {
          fields: [{ field: '/body/method', reason: 'must be initialize' }],
        });
      }
      const keyId = auth.keyId;
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new InMemoryEventStore(),
        onsessioninitialized: (id) => void sessions.set(id, { transport, keyId }),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      const socket = ctx.req.socket;
      const call = loopbackCall(socket.localAddress ?? '127.0.0.1', socket.localPort ?? 0, ctx.get('Authorization'));
      await createMcpServer(routes(), auth.scopes, call).connect(transport);
      session = { transport, keyId };
    }
    ctx.respond = false;
    await session.transport.handleRequest(ctx.req, ctx.res, parsed);
  };
}

async function readJson(req: NodeJS.ReadableStream): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.from(chunk as Buffer));
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new ApiError('invalid_request', 'The body is not valid JSON.', {});
  }
}
