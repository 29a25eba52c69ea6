import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, type ErrorCode } from '../../../src/errors/catalogue.js';
import { fetchUrl, type FetchUrlOptions } from '../../../src/documents/ingest/fetchUrl.js';
import { htmlToText } from '../../../src/documents/ingest/html.js';
import type { Resolver } from '../../../src/documents/ingest/target.js';

const PAGE = `<!doctype html><html><head><title>Field Guide</title>
<style>body { color: red }</style><script>var secret = "tracking";</script></head>
<body><h1>Birds</h1><p>Robins sing at dawn.</p><script>alert("x")</script><p>Owls hunt at night.</p></body></html>`;

function route(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://local');
  const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
  if (hop !== null) {
    const left = Number(hop[1]);
    if (left === 0) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    return void res.writeHead(302, { location: `/hop/${left - 1}` }).end();
  }
  switch (url.pathname) {
    case '/page':
      return void res.writeHead(200, { 'Content-Type': 'Text/HTML; Charset=UTF-8' }).end(PAGE);
    case '/host':
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(req.headers.host);
    case '/to-b':
      return void res.writeHead(301, { location: `http://b.test:${url.searchParams.get('port')}/host` }).end();
    case '/to-file':
      return void res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    case '/big-declared':
      return void res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5000' }).end('x'.repeat(5000));
    case '/big-streamed': {
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 5; i += 1) res.write('y'.repeat(1000));
      return void res.end();
    }
    case '/slow-headers':
      return; // never answers
    case '/slow-body':
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.write('first bytes, then nothing');
    default:
      return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  }
}

async function rejectsWith(
  work: Promise<unknown>,
  code: ErrorCode,
  check: (e: ApiError) => void = () => {},
): Promise<void> {
  await assert.rejects(work, (e: unknown) => {
    assert.ok(e instanceof ApiError, `expected an ApiError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    check(e);
    return true;
  });
}

function urlField(e: ApiError): { field: string; reason: string } {
  const problem = e.details.fields?.[0];
  assert.ok(problem !== undefined, 'the error names a field');
  return problem;
}

describe('fetchUrl', () => {
  const server = http.createServer(route);
  let base = '';
  let port = 0;
  const open: FetchUrlOptions = { allowPrivate: true, timeoutMs: 2000, maxBytes: 1024 * 1024, maxRedirects: 5 };

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fetches a page whose title and readable text can be extracted, without script or style', async () => {
    const page = await fetchUrl(`${base}/page`, open);
    assert.equal(page.mimeType, 'text/html');
    assert.equal(page.redirects, 0);
    assert.equal(page.finalUrl, `${base}/page`);
    const { title, text } = htmlToText(page.body.toString('utf8'));
    assert.equal(title, 'Field Guide');
    assert.equal(text, 'Birds\n\nRobins sing at dawn.\n\nOwls hunt at night.');
    assert.ok(!text.includes('tracking') && !text.includes('alert') && !text.includes('color'));
  });

  it('follows a redirect chain within the cap and reports the final URL', async () => {
    const page = await fetchUrl(`${base}/hop/3`, { ...open, maxRedirects: 3 });
    assert.equal(page.redirects, 3);
    assert.equal(page.finalUrl, `${base}/hop/0`);
    assert.match(page.body.toString('utf8'), /Robins sing/);
  });

  it('refuses a redirect chain longer than the cap', async () => {
    await rejectsWith(fetchUrl(`${base}/hop/3`, { ...open, maxRedirects: 2 }), 'upstream_error', (e) => {
      assert.match(e.message, /too many redirects/);
    });
  });

  it('refuses to follow a redirect to a non-http scheme', async () => {
    await rejectsWith(fetchUrl(`${base}/to-file`, open), 'invalid_request', (e) => {
      assert.equal(urlField(e).field, '/body/url');
      assert.match(urlField(e).reason, /scheme file/);
    });
  });

  it('resolves and vets every redirect hop, connecting to the vetted address under the URL host name', async () => {
    const asked: string[] = [];
    const resolve: Resolver = async (host) => {
      asked.push(host);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const page = await fetchUrl(`http://a.test:${port}/to-b?port=${port}`, { ...open, resolve });
    assert.deepEqual(asked, ['a.test', 'b.test']);
    assert.equal(page.body.toString('utf8'), `b.test:${port}`);
    assert.equal(page.finalUrl, `http://b.test:${port}/host`);
  });

  it('refuses a body whose declared Content-Length exceeds the limit, naming the limit', async () => {
    await rejectsWith(fetchUrl(`${base}/big-declared`, { ...open, maxBytes: 1024 }), 'payload_too_large', (e) => {
      assert.match(e.message, /1024 bytes/);
    });
  });

  it('refuses a streamed body without Content-Length once it exceeds the limit', async () => {
    await rejectsWith(fetchUrl(`${base}/big-streamed`, { ...open, maxBytes: 1024 }), 'payload_too_large', (e) => {
      assert.match(e.message, /1024 bytes/);
    });
  });

  it('accepts a body exactly at the limit', async () => {
    const page = await fetchUrl(`${base}/big-declared`, { ...open, maxBytes: 5000 });
    assert.equal(page.body.length, 5000);
  });

  it('gives up on a server that never answers once the timeout passes', async () => {
    const started = Date.now();
    await rejectsWith(fetchUrl(`${base}/slow-headers`, { ...open, timeoutMs: 300 }), 'upstream_error', (e) => {
      assert.match(e.message, /timed out after 300 ms/);
    });
    assert.ok(Date.now() - started < 1500, 'the deadline is kept');
  });

  it('gives up on a body that stops arriving once the timeout passes', async () => {
    await rejectsWith(fetchUrl(`${base}/slow-body`, { ...open, timeoutMs: 300 }), 'upstream_error', (e) => {
      assert.match(e.message, /timed out/);
    });
  });

  it('reports a 404 as an upstream error carrying the status', async () => {
    await rejectsWith(fetchUrl(`${base}/missing`, open), 'upstream_error', (e) => {
      assert.equal(e.details.status, 404);
    });
  });

  for (const host of ['127.0.0.1', 'localhost', '[::1]']) {
    it(`refuses loopback (${host}) when private addresses are not allowed`, async () => {
      await rejectsWith(
        fetchUrl(`http://${host}:${port}/page`, { ...open, allowPrivate: false }),
        'invalid_request',
        (e) => {
          assert.equal(urlField(e).field, '/body/url');
          assert.match(urlField(e).reason, /private address/);
        },
      );
    });
  }

  it('allows loopback by name when private addresses are allowed', async () => {
    const page = await fetchUrl(`http://localhost:${port}/host`, open);
    assert.equal(page.body.toString('utf8'), `localhost:${port}`);
  });

  it('falls back to the next vetted address when the first refuses the connection', async () => {
    const resolve: Resolver = async () => [
      { address: '::1', family: 6 },
      { address: '127.0.0.1', family: 4 },
    ];
    const page = await fetchUrl(`http://dual.test:${port}/host`, { ...open, resolve });
    assert.equal(page.body.toString('utf8'), `dual.test:${port}`);
  });

  it('refuses a host when any one of its addresses is private', async () => {
    const resolve: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    await rejectsWith(
      fetchUrl('http://mixed.test/', { ...open, allowPrivate: false, resolve }),
      'invalid_request',
      (e) => {
        // The host is named, the address it resolved to is not (no internal DNS oracle).
        assert.match(urlField(e).reason, /mixed\.test resolves to a private address/);
        assert.doesNotMatch(JSON.stringify(e), /10\.0\.0\.7/);
      },
    );
  });

  it('refuses a host that does not resolve as an invalid URL', async () => {
    const resolve: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await rejectsWith(fetchUrl('http://nowhere.test/', { ...open, resolve }), 'invalid_request', (e) => {
      assert.equal(urlField(e).field, '/body/url');
    });
  });

  for (const url of ['ftp://example.com/file.txt', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url']) {
    it(`refuses ${url} before any network access`, async () => {
      const resolve: Resolver = async () => assert.fail('no lookup for a refused scheme');
      await rejectsWith(fetchUrl(url, { ...open, resolve }), 'invalid_request', (e) => {
        assert.equal(urlField(e).field, '/body/url');
      });
    });
  }
});
