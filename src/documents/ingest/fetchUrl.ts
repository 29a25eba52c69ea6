// Fetches a document a caller asked to index, with the guards a server-side fetch needs: only
// http(s), never a private address (every redirect hop re-checked), one overall deadline and a
// byte cap, so a URL cannot make the service probe its own network or exhaust its memory.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { ApiError } from '../../errors/catalogue.js';
import { parseTarget, systemResolver, vetTarget, type Resolver, type VettedTarget } from './target.js';

export interface FetchUrlOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Resolves host names; the system resolver unless a test hands in its own. */
  resolve?: Resolver;
  /** Keep the first maxBytes of a longer answer (and drop the rest) instead of refusing it (webhooks). */
  truncate?: boolean;
}

export interface FetchedDocument {
  finalUrl: string;
  /** Content-Type without parameters, lowercased; application/octet-stream when absent. */
  mimeType: string;
  body: Buffer;
  redirects: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const REQUEST_HEADERS = {
  'user-agent': 'gks-document-fetcher/1.0',
  accept: 'text/html,application/xhtml+xml,application/pdf,text/markdown,text/plain,application/json;q=0.9,*/*;q=0.5',
  // Node does not decompress; asking for identity keeps maxBytes a limit on what we hold.
  'accept-encoding': 'identity',
};

export async function fetchUrl(url: string, opts: FetchUrlOptions): Promise<FetchedDocument> {
  const controller = new AbortController();
  const timedOut = new ApiError('upstream_error', `fetching the URL timed out after ${opts.timeoutMs} ms`, {
    timeoutMs: opts.timeoutMs,
  });
  const timer = setTimeout(() => controller.abort(timedOut), opts.timeoutMs);
  try {
    return await followRedirects(url, opts, controller.signal);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (controller.signal.aborted) throw timedOut;
    throw new ApiError('upstream_error', `fetching the URL failed: ${(err as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}

async function followRedirects(url: string, opts: FetchUrlOptions, signal: AbortSignal): Promise<FetchedDocument> {
  const resolve = opts.resolve ?? systemResolver;
  let current = parseTarget(url);
  for (let redirects = 0; ; redirects += 1) {
    const target = await untilAborted(vetTarget(current, opts.allowPrivate, resolve), signal);
    const response = await send(target, signal, { method: 'GET', headers: REQUEST_HEADERS });
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECT_STATUSES.has(status) && location !== undefined) {
      response.destroy();
      if (redirects >= opts.maxRedirects) {
        throw new ApiError('upstream_error', `too many redirects (more than ${opts.maxRedirects})`, {
          maxRedirects: opts.maxRedirects,
        });
      }
      current = parseTarget(redirectTarget(location, current));
      continue;
    }
    if (status < 200 || status > 299) {
      response.destroy();
      throw new ApiError('upstream_error', `the URL answered HTTP ${status}`, { status });
    }
    const body = await readBody(response, opts.maxBytes);
    return { finalUrl: current.href, mimeType: mimeTypeOf(response.headers['content-type']), body, redirects };
  }
}

function redirectTarget(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    throw new ApiError('upstream_error', 'the URL redirected to an invalid location', { location });
  }
}

interface OutgoingRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** One request; the custom lookup pins the connection to the vetted addresses instead of asking DNS again. */
function send(target: VettedTarget, signal: AbortSignal, outgoing: OutgoingRequest): Promise<http.IncomingMessage> {
  const { url, hostname, addresses } = target;
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all === true)
      callback(null, addresses); // Node tries each in turn (happy eyeballs)
    else callback(null, addresses[0].address, addresses[0].family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      {
        protocol: url.protocol,
        hostname, // kept as the name so Host and TLS SNI are the URL's, not the address's
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: outgoing.method,
        headers: outgoing.headers,
        agent: false,
        lookup,
        signal,
      },
      resolve,
    );
    request.on('error', reject);
    request.end(outgoing.body);
  });
}

async function readBody(response: http.IncomingMessage, maxBytes: number, truncate = false): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (!truncate && Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge(maxBytes);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      response.destroy();
      if (truncate) return Buffer.concat([...chunks, chunk]).subarray(0, maxBytes);
      throw tooLarge(maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError('payload_too_large', `the fetched document exceeds the limit of ${maxBytes} bytes`, { maxBytes });
}

function mimeTypeOf(contentType: string | undefined): string {
  const bare = contentType?.split(';')[0]?.trim().toLowerCase();
  return bare === undefined || bare === '' ? 'application/octet-stream' : bare;
}

/** DNS lookups cannot be cancelled; this stops waiting for one when the deadline passes. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export interface GuardedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  finalUrl: string;
}

/**
 * An API call through the same guard (connections): any method, caller headers, and every status
 * answered rather than thrown. A redirect is followed only for GET and only to the same origin, so
 * credentials in the headers never travel to another host.
 */
export async function requestGuarded(
  url: string,
  outgoing: OutgoingRequest,
  opts: FetchUrlOptions,
): Promise<GuardedResponse> {
  const controller = new AbortController();
  const timedOut = new ApiError('upstream_error', `the request timed out after ${opts.timeoutMs} ms`, {
    timeoutMs: opts.timeoutMs,
  });
  const timer = setTimeout(() => controller.abort(timedOut), opts.timeoutMs);
  const resolve = opts.resolve ?? systemResolver;
  try {
    let current = parseTarget(url);
    for (let redirects = 0; ; redirects += 1) {
      const target = await untilAborted(vetTarget(current, opts.allowPrivate, resolve), controller.signal);
      const response = await send(target, controller.signal, outgoing);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (
        REDIRECT_STATUSES.has(status) &&
        location !== undefined &&
        outgoing.method === 'GET' &&
        redirects < opts.maxRedirects
      ) {
        const next = parseTarget(redirectTarget(location, current));
        if (next.origin === current.origin) {
          response.destroy();
          current = next;
          continue;
        }
      }
      return {
        status,
        headers: response.headers,
        body: await readBody(response, opts.maxBytes, opts.truncate === true),
        finalUrl: current.href,
      };
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (controller.signal.aborted) throw timedOut;
    throw new ApiError('upstream_error', `the request failed: ${(err as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}
