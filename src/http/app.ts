// Assembles the Koa application: envelope first, then the refusal of oversized declared bodies, then
// the declared routes, each wrapped with the address limit, authentication (failures limited per
// address), the key's rate limit, body reading, validation and idempotency, in that order.
import Koa from 'koa';
import Router from '@koa/router';
import type { RouteSpec, ApiState, ApiContext, HandlerResult } from './route.js';
import { envelope } from './middleware/envelope.js';
import { logAppErrors } from './middleware/appErrors.js';
import { readRequestBody, refuseOversized, type BodyLimits } from './middleware/body.js';
import { authenticate } from './middleware/auth.js';
import { KnownKeyCache, UnknownKeyCache } from '../auth/keys.js';
import type { StandingCheck } from '../db/graph.js';
import { BOOKMARK_HEADER, BookmarkTokens } from '../db/bookmarks.js';
import { RateLimiter } from './middleware/rateLimit.js';
import { compile, type Validator } from './validation.js';
import type { Deps } from './deps.js';
import { withIdempotency } from './idempotency.js';
import { httpMetrics } from '../ops/httpMetrics.js';
import { ApiError } from '../errors/catalogue.js';
import { MethodTable } from './methods.js';
import { multipartSchema } from './openapi.js';
import { responseAudit } from './responseAudit.js';
import { mcpMiddleware } from '../mcp/http.js';
import { serveConsole } from '../console/serve.js';
import type { Input, JSONSchema } from './input.js';
import { liveTraffic } from '../shared/pacing.js';
import { phase, withTiming } from '../shared/serverTiming.js';

export interface CompiledRoute {
  spec: RouteSpec;
  body?: Validator;
  upload?: Validator;
  query?: Validator;
  params?: Validator;
}

export function buildApp(deps: Deps, routes: RouteSpec[]): Koa<ApiState> {
  const app = new Koa<ApiState>({ proxy: false });
  logAppErrors(app, deps.logger);
  const limits = deps.config.rateLimit;
  const limiter = new RateLimiter(limits.perSecond, limits.burst);
  const addressLimiter = new RateLimiter(limits.addressPerSecond, limits.addressBurst, false);
  // Failed authentications per address, much tighter than requests, and apart from them.
  const authFailures = new RateLimiter(limits.authFailuresPerSecond, limits.authFailuresBurst, false);
  const unknownKeys = new UnknownKeyCache();
  const knownKeys = new KnownKeyCache();
  const bookmarkTokens = new BookmarkTokens(deps.config.secrets.key);
  /** Runs work that may refuse the caller's key, counting a refusal against the address. */
  const refusalsCounted = async <T>(address: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'unauthorized') authFailures.spend(address);
      throw error;
    }
  };
  const bodyLimits: BodyLimits = {
    json: deps.config.bodyLimitBytes,
    upload: Math.max(deps.config.bodyLimitBytes, 26_214_400),
  };
  const router = new Router<ApiState>();
  const multipartPaths: RegExp[] = [];
  const methods = new MethodTable(routes);
  const audit = responseAudit();
  audit?.attach(routes);

  for (const spec of routes) {
    const compiled: CompiledRoute = {
      spec,
      ...(spec.body ? { body: compile(spec.body, 'body') } : {}),
      ...(spec.multipart ? { upload: compile(multipartSchema(spec, false), 'body') } : {}),
      ...(spec.query ? { query: compile(spec.query, 'query') } : {}),
      ...(spec.params ? { params: compile(spec.params, 'params') } : {}),
    };
    if (spec.multipart) multipartPaths.push(new RegExp(`^${spec.path.replace(/:[^/]+/g, '[^/]+')}$`));
    const serveRoute = async (ctx: ApiContext): Promise<void> => {
      methods.assertOwns(spec.path, ctx.method, ctx.path);
      ctx.state.routeName = `${spec.method.toUpperCase()} ${spec.path}`;
      ctx.state.operationId = spec.operationId;
      const address = ctx.request.ip || 'unknown';
      let standing: StandingCheck | undefined;
      if (spec.auth !== false) {
        // Before authentication: a stream of bad or unknown keys costs no database read past the limit,
        // and an address that failed too often is refused before its key is even looked at.
        addressLimiter.take(ctx, address);
        authFailures.refuseIfSpent(address);
        standing = await phase('auth', () =>
          refusalsCounted(address, () =>
            authenticate(deps.graph, ctx, spec.scope, unknownKeys, spec.keyInTransaction ? knownKeys : undefined),
          ),
        );
        limiter.take(ctx, ctx.state.auth?.keyId ?? 'anonymous');
      } else addressLimiter.take(ctx, address);
      const serve = async (): Promise<HandlerResult> => {
        // Only now is the body read: nobody unauthenticated or over a limit makes the service buffer one.
        await readRequestBody(ctx, bodyLimits, spec.multipart !== undefined && spec.multipart !== false);
        compiled.params?.(ctx.params);
        if (compiled.query) {
          const query: Record<string, unknown> = { ...ctx.query };
          compiled.query(query);
          (ctx.state as ApiState & { query?: unknown }).query = query;
        }
        if (ctx.state.upload && compiled.upload) compiled.upload(ctx.request.body ?? {});
        // The parsed body itself (null, a number, an array ... is a 400), so the handler reads what was validated.
        else if (compiled.body)
          compiled.body(ctx.request.body === undefined ? (ctx.request.body = {}) : ctx.request.body);
        // The status actually sent is what an idempotent replay answers (a 201 stays a 201).
        const run = async (): Promise<HandlerResult> => {
          const result = await spec.handler(ctx);
          return { ...result, status: result.status ?? spec.status };
        };
        return spec.idempotent ? await withIdempotency(deps.graph, ctx, run, spec.idempotentRecord) : await run();
      };
      // A known key: its standing is read in the request's first transaction, and a refusal is its answer.
      const check = standing;
      const work = () => (check ? refusalsCounted(address, () => deps.graph.withStanding(check, serve)) : serve());
      // An authenticated request runs causally after the state its X-Graph-Bookmark names (src/db/bookmarks.ts) and
      // answers the state it saw or wrote in the same header.
      let result: HandlerResult;
      if (spec.auth !== false) {
        const given = ctx.get(BOOKMARK_HEADER);
        const causal = await deps.graph.causally(given === '' ? [] : bookmarkTokens.read(given), work);
        result = causal.value;
        if (causal.bookmarks.length > 0) ctx.set(BOOKMARK_HEADER, bookmarkTokens.issue(causal.bookmarks));
      } else result = await work();
      ctx.status = result.status ?? spec.status;
      for (const [k, v] of Object.entries(result.headers ?? {})) ctx.set(k, v);
      ctx.body = result.raw ? result.body : { ...result.body, request_id: ctx.state.requestId };
    };
    const writes = spec.method !== 'get' && !(spec.scope ?? '').endsWith(':read');
    router[spec.method](spec.operationId, spec.path, async (koaCtx) => {
      // Live traffic, which background drains yield to (src/shared/pacing.ts); a request that may write feeds their
      // queues (a read's scope ends in :read).
      const end = liveTraffic.begin(writes);
      try {
        // The phases the route's work measures (src/shared/serverTiming.ts) are answered as Server-Timing.
        const timed = await withTiming(() => serveRoute(koaCtx as unknown as ApiContext));
        if (timed.header !== '') koaCtx.set('Server-Timing', timed.header);
      } finally {
        end();
      }
    });
  }

  app.use(httpMetrics(deps.config.metrics)); // outermost: sees the final status of every answer
  if (audit) {
    // Outermost, so it sees the final status and body, error envelopes included.
    app.use(async (ctx, next) => {
      await next();
      if (ctx.state.operationId && ctx.method !== 'HEAD') audit.check(ctx.state.operationId, ctx.status, ctx.body);
    });
  }
  // The review console's static page (/console): outside the /v1 envelope, with its own strict headers.
  app.use(
    serveConsole(undefined, {
      temporal_ui: deps.runtime.temporalUiUrl ?? null,
      temporal_namespace: deps.config.temporal.namespace,
    }),
  );
  app.use(envelope(deps.logger));
  app.use(refuseOversized(bodyLimits, (path) => multipartPaths.some((re) => re.test(path))));
  // MCP over Streamable HTTP (docs/mcp.md): the same address limit, authentication (failures limited
  // per address) and key rate limit as the routes; the SDK reads its own request body.
  app.use(
    mcpMiddleware(
      () => app,
      () => routes,
      async (koaCtx, known) => {
        const ctx = koaCtx as unknown as ApiContext;
        const address = ctx.request.ip || 'unknown';
        addressLimiter.take(ctx, address);
        if (known) {
          // A session's own request with the header that opened it (src/mcp/http.ts): already authenticated.
          ctx.state.auth = known;
          limiter.take(ctx, known.keyId);
          return;
        }
        authFailures.refuseIfSpent(address);
        await refusalsCounted(address, () => authenticate(deps.graph, ctx, undefined, unknownKeys));
        limiter.take(ctx, ctx.state.auth?.keyId ?? 'anonymous');
      },
    ),
  );
  app.use(router.routes());
  // OPTIONS and 405 list exactly the methods of the route the path belongs to (not the router's
  // union over every pattern the path happens to match).
  app.use(methods.middleware());
  return app;
}

/** Query values after validation and coercion, typed from the route's query schema: `queryOf<typeof schema>(ctx)`. */
export function queryOf<S extends JSONSchema>(ctx: ApiContext): Input<S> {
  return (ctx.state as ApiState & { query?: unknown }).query as unknown as Input<S>;
}

/** The validated body, typed from the route's body schema: `bodyOf<typeof schema>(ctx)`. */
export function bodyOf<S extends JSONSchema>(ctx: ApiContext): Input<S> {
  return (ctx.request.body ?? {}) as unknown as Input<S>;
}
