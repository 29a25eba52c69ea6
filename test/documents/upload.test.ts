import assert from 'node:assert/strict';
import { call, newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { minimalPdf } from './ingest/minimalPdf.js';
import { upload } from './support.js';

const chunkText = async (documentId: string) => {
  const rows = await harness().service.deps.graph.read((tx) =>
    tx.runText('MATCH (:Document {id: $id})-[:HAS_CHUNK]->(c:Chunk) RETURN c.text AS text ORDER BY c.index', {
      id: documentId,
    }),
  );
  return rows.map((r) => r.text).join('\n');
};

describe('POST /v1/documents (multipart upload)', function () {
  this.timeout(180_000); // a PDF starts the reader's worker thread

  it('a text file becomes a document of type file with its true MIME type and size', async () => {
    const t = await newTenant(0);
    const data = 'Kettles boil faster with lids on.\nSo do pots.';
    const reply = await upload(t, { filename: 'kitchen.txt', data, type: 'text/plain' });
    assert.equal(reply.status, 201);
    assert.deepEqual(Object.keys(reply.body).sort(), ['document', 'id', 'project_id', 'request_id', 'status']);
    assert.deepEqual(reply.body.document, { id: reply.body.id, title: 'kitchen.txt', type: 'file', ragReady: true });
    const source = (await t.get(`/v1/documents/${reply.body.id}`)).body.source;
    assert.equal(source.type, 'file');
    assert.equal(source.mimeType, 'text/plain');
    assert.equal(source.sizeBytes, Buffer.byteLength(data));
    assert.equal(await chunkText(reply.body.id), data);
  });

  it('Markdown is titled by its heading unless a title field is given; comma-separated tags become collections', async () => {
    const t = await newTenant(0);
    const data = '# Deploy guide\n\nRun the migrations first.\n';
    const titled = await upload(t, {
      filename: 'deploy.md',
      data,
      type: 'application/octet-stream',
      fields: { tags: 'ops, Runbooks ,ops' },
    });
    assert.equal(titled.status, 201);
    assert.equal(titled.body.document.title, 'Deploy guide');
    const named = await upload(t, { filename: 'deploy.md', data, fields: { title: 'Runbook: deploy' } });
    assert.equal(named.body.document.title, 'Runbook: deploy');
    const item = (await t.get('/v1/documents')).body.sources.find((s: { id: string }) => s.id === titled.body.id);
    assert.equal(item.mimeType, 'text/markdown', 'the true type, not the declared octet-stream');
    assert.deepEqual(
      item.collections.map((c: { name: string }) => c.name),
      ['ops', 'Runbooks'],
    );
  });

  it('more than 50 comma-separated tags are refused like more than 50 listed ones', async () => {
    const t = await newTenant(0);
    const tags = Array.from({ length: 51 }, (_, i) => `tag${i}`);
    const multipart = await upload(t, { filename: 'a.txt', data: 'text', fields: { tags: tags.join(',') } });
    assert.equal(multipart.status, 400);
    assert.equal(multipart.body.error.details.fields[0].field, '/body/tags');
    const json = await t.post('/v1/documents', { content: 'text', tags });
    assert.equal(json.status, 400);
    assert.equal(json.body.error.details.fields[0].field, '/body/tags');
  });

  it('HTML is reduced to readable text and its title', async () => {
    const t = await newTenant(0);
    const html =
      '<html><head><title>Menu</title><script>track()</script></head><body><p>Soup of the day: leek.</p></body></html>';
    const reply = await upload(t, { filename: 'menu.html', data: html, type: 'text/html' });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.document.title, 'Menu');
    const text = await chunkText(reply.body.id);
    assert.match(text, /Soup of the day: leek\./);
    assert.doesNotMatch(text, /track/);
    assert.equal((await t.get(`/v1/documents/${reply.body.id}`)).body.source.mimeType, 'text/html');
  });

  it('a PDF is read page by page, titled by its metadata, whatever type and name it was sent with', async () => {
    const t = await newTenant(0);
    const pdf = minimalPdf({
      title: 'Quarterly report',
      pages: [['Revenue grew in the north.'], ['Costs fell in the south.']],
    });
    const reply = await upload(t, {
      filename: 'report.txt',
      data: pdf,
      type: 'text/plain',
      fields: { project_id: t.projectId },
    });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.document.title, 'Quarterly report');
    const source = (await t.get(`/v1/documents/${reply.body.id}`)).body.source;
    assert.equal(source.mimeType, 'application/pdf');
    assert.equal(source.sizeBytes, pdf.length);
    const text = await chunkText(reply.body.id);
    assert.match(text, /Revenue grew in the north\./);
    assert.match(text, /Costs fell in the south\./);
  });

  it('an upload carries the file alone: content or url beside it is a 400', async () => {
    const t = await newTenant(0);
    const reply = await upload(t, { filename: 'a.txt', data: 'file text', fields: { content: 'also text' } });
    assert.equal(reply.status, 400);
    assert.deepEqual(reply.body.error.details.fields, [
      { field: '/body/content', reason: 'must be omitted when a file is uploaded' },
    ]);
  });

  it('binary content that is not a PDF is refused, naming /body/file, as the published file part says', async () => {
    const t = await newTenant(0);
    const published = (await t.get('/v1/openapi.json')).body.paths['/v1/documents'].post.requestBody.content[
      'multipart/form-data'
    ].schema.properties.file;
    assert.match(published.description, /text .* or a PDF/);
    assert.match(published.description, /refused with 400 invalid_request naming \/body\/file/);
    const reply = await upload(t, {
      filename: 'photo.png',
      data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3]),
      type: 'image/png',
    });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.details.fields[0].field, '/body/file');
    assert.equal((await t.get('/v1/documents')).body.sources.length, 0);
  });

  it('a 1 MB text file is indexed as one delta; deleting it takes its chunks off the vector queue', async function () {
    this.timeout(120_000);
    const t = await newTenant(0);
    const sentence = (i: number) => `Line ${i} of the large file mentions harbour ${i % 97} and lighthouse ${i % 89}.`;
    let data = '';
    for (let i = 0; data.length < 1024 * 1024; i += 1) data += `${sentence(i)}${i % 10 === 9 ? '\n\n' : ' '}`;
    const reply = await upload(t, { filename: 'large.txt', data, type: 'text/plain' });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.document.ragReady, true);
    const [row] = await harness().service.deps.graph.read((tx) =>
      tx.runText(
        `MATCH (d:Document {id: $id})
       RETURN d.chunk_count AS chunks, COUNT { (d)-[:HAS_CHUNK]->() } AS linked,
              COUNT { MATCH (x:Delta {project_id: $p}) } AS deltas, COUNT { MATCH (x:Delta)-[:CREATED]->(d) } AS creating`,
        { id: reply.body.id, p: t.projectId },
      ),
    );
    assert.ok(Number(row!.chunks) > 800, `expected about 1000 chunks, got ${row!.chunks}`);
    assert.equal(row!.linked, row!.chunks);
    assert.equal(row!.deltas, 1);
    assert.equal(row!.creating, 1);
    // Its thousand-odd chunks wait for vectors; deleted, none of them is left in the queue (nor in the suite's: the
    // tests after this one would otherwise wait behind them).
    const queuedChunks = async () => {
      const [queued] = await harness().service.deps.graph.read((tx) =>
        tx.runText('MATCH (c:Chunk {project_id: $p}) WHERE c.embedding_queued_at IS NOT NULL RETURN count(c) AS n', {
          p: t.projectId,
        }),
      );
      return Number(queued!.n);
    };
    assert.ok((await queuedChunks()) > 500, 'the chunks wait in the vector queue');
    const deleted = await call('DELETE', `/v1/documents/${reply.body.id}`, undefined, { key: t.key });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal(await queuedChunks(), 0);
  });
});
