// A request the HTTP parser cannot read (a malformed request line or header, headers past Node's limit) never
// reaches the routes: Node would close its connection with a bare "400 Bad Request". Here it is answered with
// the API's own error envelope, 400 invalid_request, as any operation's document says (src/http/openapi.ts).
import crypto from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { ERROR_CATALOGUE } from '../errors/catalogue.js';

const MESSAGE = 'The request could not be read: a malformed request line or header, or headers past the size limit.';

/** The raw HTTP answer to an unreadable request: 400 with the error envelope, and the connection closed. */
export function unreadableAnswer(requestId: string = crypto.randomUUID()): string {
  const body = JSON.stringify({
    error: { code: 'invalid_request', message: MESSAGE, details: {} },
    request_id: requestId,
  });
  const status = ERROR_CATALOGUE.invalid_request.status;
  return (
    `HTTP/1.1 ${status} Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** Answers the requests the server's parser refuses with the envelope (a client already gone is let go). */
export function answerUnreadableRequests(server: http.Server, logger: Logger): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = crypto.randomUUID();
    logger.info({ request_id: requestId, code: error.code }, 'unreadable request refused');
    socket.end(unreadableAnswer(requestId));
  });
}
