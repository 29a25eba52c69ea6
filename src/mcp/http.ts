// Streamable HTTP at /mcp on the API's port: the same bearer keys, rate limit, request ids and
// metrics as the routes. Each session is bound to the key that opened it.
import crypto, { randomUUID } from 'node:crypto';
import type { AuthContext } from '../auth/keys.js';
import type { Middleware } from 'koa';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ApiState, RouteSpec } from '../http/route.js';
import { ApiError } from '../errors/catalogue.js';
import type Koa from 'koa';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createMcpServer } from './server.js';
import { inProcessCall } from './dispatch.js';

interface Session {
  transport: StreamableHTTPServerTransport;
  keyId: string;
  /** SHA-256 of the Authorization header that opened the session, and what it authenticated as. */
  credential: Buffer;
  auth: AuthContext;
  organizationId: string;
  server: Server;
}

/** Routes after which a session's resource list may have changed (slices and saved packs come and go). */
const CHANGES_RESOURCES = new Set([
  'createSlice',
  'publishSliceVersion',
  'deleteSlice',
  'saveContextPack',
  'applyDelta',
  'rejectDelta',
  'revertDelta',
]);

/** The open sessions of each app, so that closing the service ends them (their GET streams never end by themselves). */
const SESSIONS_OF = new WeakMap<Koa<ApiState>, Map<string, Session>>();

/** Ends every MCP session of the app: their SSE streams end, so the HTTP server can close. */
export async function closeMcpSessions(app: Koa<ApiState>): Promise<void> {
  const sessions = SESSIONS_OF.get(app);
  if (!sessions) return;
  await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
  sessions.clear();
}

export function mcpMiddleware(
  app: () => Koa<ApiState>,
  routes: () => RouteSpec[],
  guard: (ctx: Parameters<Middleware<ApiState>>[0], known?: AuthContext) => Promise<void>,
): Middleware<ApiState> {
  const sessions = new Map<string, Session>();
  SESSIONS_OF.set(app(), sessions);
  return async (ctx, next) => {
    if (ctx.path !== '/mcp') {
      await next();
      // Tell the organization's sessions to list resources again after a slice or pack may have changed.
      const org = ctx.state.auth?.organizationId;
      if (org && ctx.status < 400 && CHANGES_RESOURCES.has(ctx.state.operationId ?? '')) {
        for (const session of sessions.values())
          if (session.organizationId === org) session.server.sendResourceListChanged().catch(() => undefined);
      }
      return;
    }
    ctx.state.routeName = `${ctx.method} /mcp`;
    const sessionId = ctx.get('mcp-session-id');
    let session = sessionId ? sessions.get(sessionId) : undefined;
    const credential = digest(ctx.get('Authorization'));
    // Rate limits as for every route. Authentication too, except on a session's own requests with the
    // exact header that opened it: those are not looked up again, so a dead Neo4j reaches each tool
    // call (which authenticates as its route does) as a tool error, not as a failed MCP request.
    const known = session && crypto.timingSafeEqual(session.credential, credential) ? session.auth : undefined;
    await guard(ctx, known);
    const auth = ctx.state.auth!;
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
      const organizationId = auth.organizationId;
      // Tool calls run their route in this process (src/mcp/dispatch.ts) as this key, from this peer.
      const call = inProcessCall(
        app,
        { authorization: ctx.get('Authorization'), remoteAddress: ctx.request.ip || 'unknown' },
        'mcp',
      );
      const server = createMcpServer(routes(), { scopes: auth.scopes, projectId: auth.projectId }, call);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new InMemoryEventStore(),
        onsessioninitialized: (id) =>
          void sessions.set(id, { transport, keyId, organizationId, server, credential, auth }),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      session = { transport, keyId, organizationId, server, credential, auth };
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

function digest(header: string): Buffer {
  return crypto.createHash('sha256').update(header).digest();
}
