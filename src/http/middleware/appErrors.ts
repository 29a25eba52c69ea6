// What fails outside the middleware chain, once envelope can no longer answer: the connection under a request or
// a response stream (an MCP event stream, a request in flight) reset or broken by the client. Koa's default
// prints each such error's stack to stderr, outside the structured log; here each is one log line with the
// request's id. A client dropping its own connection is ordinary (info); anything else is an error.
import type Koa from 'koa';
import type { ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import type { ApiState } from '../route.js';

/** Error codes of a connection the client reset, closed or abandoned under a request or its response. */
const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

export function logAppErrors(app: Koa<ApiState>, logger: Logger): void {
  app.on('error', (error: unknown, ctx?: ParameterizedContext<ApiState>) => {
    const code = (error as { code?: unknown } | null)?.code;
    const fields = {
      request_id: ctx?.state.requestId,
      method: ctx?.method,
      route: ctx?.state.routeName ?? ctx?.path,
    };
    if (typeof code === 'string' && CLIENT_GONE.has(code)) {
      logger.info({ ...fields, code }, 'client closed the connection');
    } else {
      logger.error({ ...fields, err: error }, 'connection failed outside a request handler');
    }
  });
}
