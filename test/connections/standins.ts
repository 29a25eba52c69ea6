// Stand-in upstream platforms on loopback: a GitHub-like issues API, a Notion-like API, an RSS feed
// and a generic JSON API with Link-header pages. Each checks the bearer token (401 echoing what it
// got, as careless APIs do, so scrubbing is tested), records every request, and can fail or hold a page.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
}

export interface Issue {
  number: number;
  title: string;
  body: string;
  updated_at: string;
  pull_request?: boolean;
}

export interface StandIn {
  url: string;
  token: string;
  requests: SeenRequest[];
  issues: Issue[];
  /** Answer this status for requests of this page number (1-based) while times > 0. */
  failPage: { page: number; status: number; times: number } | null;
  /** While set, a request for this page waits until release() is called. */
  holdPage: number | null;
  release(): void;
  close(): Promise<void>;
}

export function makeIssues(count: number, start = Date.parse('2026-01-01T00:00:00Z')): Issue[] {
  return Array.from({ length: count }, (_, i) => ({
    number: i + 1,
    title: `Issue ${i + 1}: widget ${i % 7} misbehaves`,
    body: `Steps to reproduce issue ${i + 1} with the flux capacitor number ${i}.`,
    updated_at: new Date(start + i * 60_000).toISOString(),
  }));
}

type Handler = (
  req: http.IncomingMessage,
  url: URL,
  body: string,
  s: StandIn,
) => { status: number; body: unknown; headers?: Record<string, string> };

export async function startStandIn(
  handler: Handler,
  token = `tok_${Math.random().toString(36).slice(2)}SECRETx9`,
): Promise<StandIn> {
  let releaseHold: (() => void) | null = null;
  let held = new Promise<void>((r) => (releaseHold = r));
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://stand.in');
        state.requests.push({
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          authorization: req.headers.authorization,
        });
        const page = Number(url.searchParams.get('page') ?? 1);
        if (state.holdPage === page) await held;
        if (req.headers.authorization !== `Bearer ${state.token}` && !url.pathname.endsWith('.xml')) {
          res.writeHead(401, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: `Bad credentials: ${req.headers.authorization ?? 'none'}` }));
          return;
        }
        if (state.failPage && state.failPage.page === page && state.failPage.times > 0) {
          state.failPage.times -= 1;
          res.writeHead(state.failPage.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: `upstream broke while serving ${req.headers.authorization}` }));
          return;
        }
        const out = handler(req, url, body, state);
        const text = typeof out.body === 'string' ? out.body : JSON.stringify(out.body);
        res.writeHead(out.status, {
          'content-type': typeof out.body === 'string' ? 'application/rss+xml' : 'application/json',
          ...out.headers,
        });
        res.end(text);
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const state: StandIn = {
    url,
    token,
    requests: [],
    issues: [],
    failPage: null,
    holdPage: null,
    release() {
      releaseHold?.();
      held = new Promise<void>((r) => (releaseHold = r));
    },
    close: () =>
      new Promise<void>((r) => {
        releaseHold?.();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  return state;
}

/** GitHub-like: /user, /repos/:o/:r, /repos/:o/:r/issues with since, asc by updated, Link pages. */
export const github: Handler = (_req, url, _body, s) => {
  if (url.pathname === '/user') return { status: 200, body: { login: 'octo', id: 42 } };
  if (/^\/repos\/[^/]+\/[^/]+$/.test(url.pathname)) return { status: 200, body: { full_name: 'acme/widgets' } };
  if (/^\/repos\/[^/]+\/[^/]+\/issues$/.test(url.pathname)) {
    const since = url.searchParams.get('since');
    const perPage = Number(url.searchParams.get('per_page') ?? 30);
    const page = Number(url.searchParams.get('page') ?? 1);
    const all = s.issues
      .filter((i) => !since || i.updated_at >= since)
      .sort((a, b) => a.updated_at.localeCompare(b.updated_at));
    const slice = all.slice((page - 1) * perPage, page * perPage);
    const headers: Record<string, string> = {};
    if (page * perPage < all.length) {
      const next = new URL(url.href.replace('http://stand.in', s.url));
      next.searchParams.set('page', String(page + 1));
      headers.link = `<${next.href}>; rel="next"`;
    }
    return {
      status: 200,
      headers,
      body: slice.map((i) => ({
        ...i,
        html_url: `https://example.test/acme/widgets/issues/${i.number}`,
        state: 'open',
        labels: [{ name: 'bug' }],
        ...(i.pull_request ? { pull_request: { url: 'x' } } : {}),
      })),
    };
  }
  return { status: 404, body: { message: 'Not Found' } };
};

/** Generic JSON: /api/items?page=N, three records a page, Link header to the next page. */
export const jsonApi: Handler = (_req, url, _body, s) => {
  if (url.pathname !== '/api/items') return { status: 404, body: { error: 'no' } };
  const page = Number(url.searchParams.get('page') ?? 1);
  const slice = s.issues.slice((page - 1) * 3, page * 3);
  const headers: Record<string, string> = {};
  if (page * 3 < s.issues.length) headers.link = `<${s.url}/api/items?page=${page + 1}>; rel="next"`;
  return {
    status: 200,
    headers,
    body: {
      data: {
        items: slice.map((i) => ({
          id: `item-${i.number}`,
          name: i.title,
          description: i.body,
          modified: i.updated_at,
        })),
      },
    },
  };
};
