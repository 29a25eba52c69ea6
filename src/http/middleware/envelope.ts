// Mounted first: gives every request its id (a well-formed incoming X-Request-Id is kept), turns
// every failure into the one error envelope, and writes one structured log line per request.
import crypto from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { ApiError, ERROR_CATALOGUE } from '../../errors/catalogue.js';
import type { ApiState } from '../route.js';

const REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function envelope(logger: Logger): Middleware<ApiState> {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.startedAt = performance.now();
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
      if ((ctx.status === 405 || ctx.status === 501) && !ctx.body) {
        throw new ApiError(
          'method_not_allowed',
          `${ctx.method} is not allowed on ${ctx.path}.`,
          {
            allowed_methods: (ctx.response.get('Allow') || '').split(/,\s*/).filter(Boolean),
          },
          { Allow: ctx.response.get('Allow') || '' },
        );
      }
      if (ctx.body === undefined && ctx.status === 404) {
        throw new ApiError('not_found', `No route ${ctx.method} ${ctx.path}`);
      }
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.code === 'internal_error') {
        logger.error({ request_id: requestId, err: describe(error) }, 'unexpected error');
      }
      ctx.status = apiError.status;
      for (const [k, v] of Object.entries(apiError.headers)) ctx.set(k, v);
      ctx.body = {
        error: { code: apiError.code, message: apiError.message, details: apiError.details },
        request_id: requestId,
      };
    } finally {
      const level = ctx.status >= 500 ? 'error' : ctx.status >= 400 ? 'warn' : 'info';
      logger[level](
        {
          request_id: requestId,
          key_id: ctx.state.auth?.keyId,
          method: ctx.method,
          route: ctx.state.routeName ?? ctx.path,
          status: ctx.status,
          latency_ms: Math.round((performance.now() - ctx.state.startedAt) * 100) / 100,
        },
        'request',
      );
    }
  };
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  // Koa and its body readers signal client errors with an HTTP status; keep those classes of error.
  const status = (error as { status?: unknown; expose?: unknown })?.status;
  if (status === 413) return new ApiError('payload_too_large', 'The request body is too large.');
  if (status === 415) return new ApiError('unsupported_media_type', 'The request body must be JSON.');
  if (typeof status === 'number' && status === 400)
    return new ApiError('invalid_request', 'The request could not be read.');
  return new ApiError('internal_error', 'An unexpected error occurred; it has been logged with the request id.');
}

function describe(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { value: String(error) };
}

export const STATUS_OF = ERROR_CATALOGUE;
