import assert from 'node:assert/strict';
import type http from 'node:http';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { apiWithFetch, postJson, serve, type Server } from './support.js';

const PAGE = `<!doctype html><html><head><title>Field Guide</title>
<style>body { color: red }</style><script>var secret = "tracking";</script></head>
<body><h1>Birds</h1><p>Robins sing at dawn.</p><script>alert("x")</script><p>Owls hunt at night.</p></body></html>`;

function site(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://local');
  const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
  if (hop) {
    const left = Number(hop[1]);
    if (left === 0) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    return void res.writeHead(302, { location: `/hop/${left - 1}` }).end();
  }
  switch (url.pathname) {
    case '/guide.html':
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    case '/notes.md':
      return void res
        .writeHead(200, { 'content-type': 'text/markdown' })
        .end('# Trail notes\n\nThe *north* trail floods in spring.\n');
    case '/big':
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end('word '.repeat(2000));
    default:
      return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  }
}

const chunkTexts = (documentId: string) =>
  harness().service.deps.graph.read((tx) =>
    tx.runText('MATCH (:Document {id: $id})-[:HAS_CHUNK]->(c:Chunk) RETURN c.text AS text ORDER BY c.index', {
      id: documentId,
    }),
  );

const documentProps = async (documentId: string) => {
  const rows = await harness().service.deps.graph.read((tx) =>
    tx.runText('MATCH (d:Document {id: $id}) RETURN properties(d) AS p', { id: documentId }),
  );
  return rows[0]!.p as Record<string, unknown>;
};

describe('POST /v1/documents (url)', () => {
  let pages: Server;
  before(async () => {
    pages = await serve(site);
  });
  after(async () => {
    await pages.close();
  });

  it('indexes an HTML page as its readable text and title, scripts and styles dropped', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/documents', { url: `${pages.url}/guide.html`, tags: ['birds'] });
    assert.equal(reply.status, 201);
    assert.deepEqual(reply.body.document, { id: reply.body.id, title: 'Field Guide', type: 'url', ragReady: true });
    const text = (await chunkTexts(reply.body.id)).map((c) => c.text).join('\n');
    assert.match(text, /Robins sing at dawn\./);
    assert.match(text, /Owls hunt at night\./);
    assert.doesNotMatch(text, /tracking|alert|color: red/);
    const item = (await t.get('/v1/documents')).body.sources[0];
    assert.equal(item.type, 'url');
    assert.equal(item.mimeType, 'text/html');
    assert.equal(item.sizeBytes, Buffer.byteLength(PAGE));
    const p = await documentProps(reply.body.id);
    assert.equal(p.source_url, `${pages.url}/guide.html`);
  });

  it('a caller title wins over the page title', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/documents', { url: `${pages.url}/guide.html`, title: 'My birds' });
    assert.equal(reply.body.document.title, 'My birds');
  });

  it('follows redirects and records where they led', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/documents', { url: `${pages.url}/hop/2` });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.document.title, 'Field Guide');
    const p = await documentProps(reply.body.id);
    assert.equal(p.source_url, `${pages.url}/hop/2`);
    assert.equal(p.final_url, `${pages.url}/hop/0`);
  });

  it('takes Markdown as it is, titled by its first heading', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/documents', { url: `${pages.url}/notes.md` });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.document.title, 'Trail notes');
    assert.equal((await t.get(`/v1/documents/${reply.body.id}`)).body.source.mimeType, 'text/markdown');
    assert.match(String((await chunkTexts(reply.body.id))[0]!.text), /The \*north\* trail floods in spring\./);
  });

  it('a page larger than the fetch limit is refused with 413 and nothing is indexed', async () => {
    const t = await newTenant(0);
    const api = await apiWithFetch({ maxBytes: 1024 });
    try {
      const reply = await postJson(api.url, t.key, '/v1/documents', { url: `${pages.url}/big` });
      assert.equal(reply.status, 413);
      assert.equal(reply.body.error.code, 'payload_too_large');
      assert.equal(reply.body.error.details.maxBytes, 1024);
    } finally {
      await api.close();
    }
    assert.equal((await t.get('/v1/documents')).body.sources.length, 0);
  });

  it('too many redirects are an upstream error', async () => {
    const t = await newTenant(0);
    const api = await apiWithFetch({ maxRedirects: 1 });
    try {
      const reply = await postJson(api.url, t.key, '/v1/documents', { url: `${pages.url}/hop/3` });
      assert.equal(reply.status, 502);
      assert.equal(reply.body.error.code, 'upstream_error');
    } finally {
      await api.close();
    }
  });

  it('a loopback address is refused (400 naming /body/url) unless configuration allows private addresses', async () => {
    const t = await newTenant(0);
    const api = await apiWithFetch({ allowPrivate: false });
    try {
      const reply = await postJson(api.url, t.key, '/v1/documents', { url: `${pages.url}/guide.html` });
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.code, 'invalid_request');
      assert.equal(reply.body.error.details.fields[0].field, '/body/url');
      assert.match(reply.body.error.details.fields[0].reason, /127\.0\.0\.1 resolves to a private address/);
    } finally {
      await api.close();
    }
    assert.equal((await t.get('/v1/documents')).body.sources.length, 0);
    assert.equal(
      (await t.post('/v1/documents', { url: `${pages.url}/guide.html` })).status,
      201,
      'allowed by the test configuration',
    );
  });

  it('a URL that is not http(s) is a 400 and a page answering 404 is a 502', async () => {
    const t = await newTenant(0);
    const scheme = await t.post('/v1/documents', { url: 'file:///etc/passwd' });
    assert.equal(scheme.status, 400);
    assert.equal(scheme.body.error.details.fields[0].field, '/body/url');
    const missing = await t.post('/v1/documents', { url: `${pages.url}/nothing` });
    assert.equal(missing.status, 502);
    assert.equal(missing.body.error.details.status, 404);
  });
});
