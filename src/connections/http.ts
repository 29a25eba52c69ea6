// Outbound calls of connectors: through the URL-indexing SSRF guard, the token only in a header,
// every failure classified (auth_failed, forbidden_scope, unreachable) and its text scrubbed of the
// token before anyone can log, store or return it.
import type { Config } from '../config/config.js';
import { ApiError } from '../errors/catalogue.js';
import { requestGuarded, type GuardedResponse } from '../documents/ingest/fetchUrl.js';
import { scrub } from './secrets.js';
import type { StatusReason } from './types.js';

export class UpstreamError extends Error {
  constructor(
    readonly reason: StatusReason | 'bad_response' | 'refused',
    readonly httpStatus: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export interface UpstreamResponse {
  status: number;
  headers: GuardedResponse['headers'];
  text: string;
  url: string;
}

export interface CallOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  json?: unknown;
}

export type FetchSettings = Pick<Config['fetch'], 'allowPrivate' | 'timeoutMs' | 'maxBytes' | 'maxRedirects'>;

/**
 * One call; answers any HTTP status, throws UpstreamError (scrubbed) when nothing was answered.
 * A connection talks to one origin only, the one its secret is bound to (its base_url's scheme,
 * host and port): a URL that resolves anywhere else is refused here, before anything is sent,
 * whatever the configuration says; and requestGuarded follows redirects only within that origin.
 * This is the one place every outbound call of a connection goes through (docs/security.md).
 */
export async function callUpstream(
  url: string,
  token: string | null,
  options: CallOptions,
  settings: FetchSettings,
  boundOrigin: string,
): Promise<UpstreamResponse> {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    throw new UpstreamError('refused', null, 'refused: the request URL does not parse');
  }
  if (origin !== boundOrigin)
    throw new UpstreamError(
      'refused',
      null,
      `refused: the request would go to ${origin}, but this connection's secret is bound to ${boundOrigin}`,
    );
  const headers: Record<string, string> = {
    'user-agent': 'gks-connections/1.0',
    accept: 'application/json',
    'accept-encoding': 'identity',
    ...options.headers,
  };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await requestGuarded(
      url,
      {
        method: options.method ?? 'GET',
        headers,
        ...(options.json !== undefined ? { body: JSON.stringify(options.json) } : {}),
      },
      settings,
    );
    return {
      status: response.status,
      headers: response.headers,
      text: response.body.toString('utf8'),
      url: response.finalUrl,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const refused = error instanceof ApiError && error.code === 'invalid_request';
    throw new UpstreamError(refused ? 'refused' : 'unreachable', null, scrub(message, token));
  }
}

/** Turns a non-2xx answer into the connection's status reason; 2xx passes. */
export function expectOk(response: UpstreamResponse, token: string | null, what: string): void {
  if (response.status >= 200 && response.status < 300) return;
  const reason: StatusReason | 'bad_response' =
    response.status === 401
      ? 'auth_failed'
      : response.status === 403
        ? 'forbidden_scope'
        : response.status >= 500 || response.status === 429
          ? 'unreachable'
          : 'bad_response';
  // Scrubbed before it is cut: a token split at the cut would otherwise survive in part.
  const excerpt = scrub(response.text.replace(/\s+/g, ' '), token).slice(0, 200);
  throw new UpstreamError(
    reason,
    response.status,
    scrub(`${what} answered HTTP ${response.status}: ${excerpt}`, token),
  );
}

export function parseJson(response: UpstreamResponse, token: string | null, what: string): unknown {
  try {
    return JSON.parse(response.text) as unknown;
  } catch {
    throw new UpstreamError('bad_response', response.status, scrub(`${what} did not answer JSON`, token));
  }
}

/** The rel="next" target of a Link header, only on the same origin as the request (a token never follows elsewhere). */
export function nextLink(response: UpstreamResponse): string | null {
  const header = response.headers.link;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return null;
  for (const part of value.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(part);
    if (!match?.[1]) continue;
    const next = new URL(match[1], response.url);
    if (next.origin !== new URL(response.url).origin)
      throw new UpstreamError(
        'bad_response',
        response.status,
        `the next page link leaves ${new URL(response.url).origin}; refused`,
      );
    return next.href;
  }
  return null;
}

/** The header carrying the token: Authorization: Bearer <token> unless configured otherwise. */
export function authHeader(
  token: string | null,
  auth: { header?: string; scheme?: string } | undefined,
): Record<string, string> {
  if (!token) return {};
  const scheme = auth?.scheme ?? 'Bearer';
  return { [(auth?.header ?? 'Authorization').toLowerCase()]: scheme ? `${scheme} ${token}` : token };
}
