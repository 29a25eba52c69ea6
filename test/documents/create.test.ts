import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { luceneQuery } from '../../src/db/tenant.js';
import { newTenant, call } from '../support/api.js';
import { harness } from '../support/harness.js';
import { UUID } from './support.js';
import { countTokens } from '../../src/documents/ingest/index.js';

const graph = () => harness().service.deps.graph;

/** Paragraphs of distinct sentences, long enough for several chunks. */
function longText(paragraphs: number): string {
  return Array.from({ length: paragraphs }, (_, p) =>
    Array.from(
      { length: 8 },
      (_, s) => `Paragraph ${p} sentence ${s} talks about river number ${p * 8 + s} and its banks.`,
    ).join(' '),
  ).join('\n\n');
}

describe('POST /v1/documents (raw text)', () => {
  it('indexes raw text and answers 201 with exactly the fields of docs/documents.md', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/documents', {
      content: 'Robins sing at dawn. Owls hunt at night.',
      title: 'Birds',
    });
    assert.equal(reply.status, 201);
    assert.deepEqual(Object.keys(reply.body).sort(), ['document', 'id', 'project_id', 'request_id', 'status']);
    assert.match(reply.body.id, UUID);
    assert.equal(reply.body.status, 'indexed');
    assert.equal(reply.body.project_id, t.projectId);
    assert.match(reply.body.request_id, UUID);
    assert.deepEqual(reply.body.document, { id: reply.body.id, title: 'Birds', type: 'text', ragReady: true });
  });

  it('stores the document, its chunks and links as one applied delta of origin document', async () => {
    const t = await newTenant(0);
    const text = longText(12);
    const reply = await t.post('/v1/documents', { content: text, title: 'Rivers', tags: ['Geography'] });
    assert.equal(reply.status, 201);
    const id = reply.body.id as string;
    const deltas = await graph().read((tx) =>
      tx.runText(
        `MATCH (d:Delta {project_id: $p}) RETURN d.origin AS origin, d.status AS status, d.summary AS summary,
              COUNT { (d)-[:CREATED]->(:Document {id: $id}) } AS documents`,
        { p: t.projectId, id },
      ),
    );
    assert.deepEqual(deltas, [{ origin: 'document', status: 'applied', summary: 'document: Rivers', documents: 1 }]);
    const [doc] = await graph().read((tx) =>
      tx.runText('MATCH (d:Document:Knowledge {id: $id}) RETURN properties(d) AS p, labels(d) AS labels', { id }),
    );
    const p = doc!.p as Record<string, unknown>;
    assert.deepEqual((doc!.labels as string[]).sort(), ['Document', 'Knowledge']);
    assert.equal(p.title, 'Rivers');
    assert.equal(p.type, 'text');
    assert.equal(p.mime_type, 'text/plain');
    assert.equal(p.size_bytes, Buffer.byteLength(text));
    assert.deepEqual(p.tags, ['Geography']);
    assert.equal(p.stage, 'indexed');
    assert.equal(p.char_count, text.length);
    assert.equal(p.token_count, countTokens(text), 'tokens counted by the BPE tokenizer, not characters / 4');
    assert.equal(p.content_hash, crypto.createHash('sha256').update(text).digest('hex'));
    assert.equal(p.added_by, t.keyId);
    assert.equal(p.added_by_name, 'test');
    assert.equal(p.governance_status, 'active');
    assert.equal(p.rag_ready, true);
    assert.equal(p.extraction_count, 0);
    assert.equal(p.project_id, t.projectId);
    assert.match(String(p.tenant), /^p[0-9a-f]+z$/);
  });

  it('chunks overlap, cover the text in order and are linked HAS_CHUNK and NEXT', async () => {
    const t = await newTenant(0);
    const text = longText(12);
    const { body } = await t.post('/v1/documents', { content: text });
    const chunks = await graph().read((tx) =>
      tx.runText(
        `MATCH (d:Document {id: $id})-[r:HAS_CHUNK]->(c:Chunk:Knowledge)
       WHERE r.pending IS NULL AND NOT c:Pending
       RETURN c.index AS index, c.text AS text, c.start AS start, c.end AS end, c.document_id AS document_id,
              c.token_count AS tokens, c.tenant AS tenant, c.project_id AS project_id
       ORDER BY c.index`,
        { id: body.id },
      ),
    );
    assert.ok(chunks.length >= 5, `expected several chunks, got ${chunks.length}`);
    chunks.forEach((c, i) => {
      assert.equal(c.index, i);
      assert.equal(c.text, text.slice(Number(c.start), Number(c.end)));
      assert.equal(c.document_id, body.id);
      assert.equal(c.project_id, t.projectId);
      assert.ok(Number(c.tokens) > 0);
      if (i > 0) assert.ok(Number(c.start) < Number(chunks[i - 1]!.end), 'consecutive chunks overlap');
    });
    assert.equal(chunks[0]!.start, 0);
    assert.equal(chunks[chunks.length - 1]!.end, text.length);
    const [walk] = await graph().read((tx) =>
      tx.runText(
        `MATCH (d:Document {id: $id})-[:HAS_CHUNK]->(first:Chunk {index: 0})
       MATCH path = (first)-[:NEXT*0..]->(last:Chunk) WHERE NOT (last)-[:NEXT]->()
       RETURN [c IN nodes(path) | c.index] AS order, COUNT { (d)-[:HAS_CHUNK]->() } AS linked, d.chunk_count AS chunk_count`,
        { id: body.id },
      ),
    );
    assert.deepEqual(
      walk!.order,
      chunks.map((_, i) => i),
    );
    assert.equal(walk!.linked, chunks.length);
    assert.equal(walk!.chunk_count, chunks.length);
  });

  it('chunks are answerable by the chunk_text index as soon as the answer comes, within their project only', async () => {
    const t = await newTenant(0);
    const other = await newTenant(0);
    const { body } = await t.post('/v1/documents', { content: `${longText(3)}\n\nThe quokka zephyrine appears once.` });
    assert.equal(body.document.ragReady, true);
    const search = (projectId: string) =>
      graph().read((tx) =>
        tx.runText(
          `CALL db.index.fulltext.queryNodes('chunk_text', $q) YIELD node, score
       WHERE node.project_id = $p AND NOT node:Pending RETURN node.document_id AS document_id, node.text AS text`,
          { q: luceneQuery('zephyrine', projectId), p: projectId },
        ),
      );
    const hits = await search(t.projectId);
    assert.equal(hits.length, 1);
    assert.equal(hits[0]!.document_id, body.id);
    assert.match(String(hits[0]!.text), /quokka zephyrine/);
    assert.deepEqual(await search(other.projectId), []);
    // The tenant token alone keeps the other project's query away, even without the project filter.
    const unfiltered = await graph().read((tx) =>
      tx.runText("CALL db.index.fulltext.queryNodes('chunk_text', $q) YIELD node RETURN count(node) AS n", {
        q: luceneQuery('zephyrine', other.projectId),
      }),
    );
    assert.equal(unfiltered[0]!.n, 0);
  });

  it('refuses neither content nor url, and both, with a 400 naming both fields', async () => {
    const t = await newTenant(0);
    for (const body of [{ title: 'nothing' }, { content: 'text', url: 'http://127.0.0.1:1/page' }]) {
      const reply = await t.post('/v1/documents', body);
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.code, 'invalid_request');
      assert.match(reply.body.error.message, /exactly one of content.* or url/);
      assert.deepEqual(
        reply.body.error.details.fields.map((f: { field: string }) => f.field),
        ['/body/content', '/body/url'],
      );
    }
    assert.equal((await t.get('/v1/documents')).body.sources.length, 0);
  });

  it('refuses content with no text, unknown fields and tags that are not a list', async () => {
    const t = await newTenant(0);
    const blank = await t.post('/v1/documents', { content: '  \n\t ' });
    assert.equal(blank.status, 400);
    assert.deepEqual(blank.body.error.details.fields, [
      { field: '/body/content', reason: 'contains no text to index' },
    ]);
    const unknown = await t.post('/v1/documents', { content: 'x', colour: 'red' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.details.fields[0].field, '/body/colour');
    const tagString = await t.post('/v1/documents', { content: 'x', tags: 'a,b' });
    assert.equal(tagString.status, 400);
    assert.equal(tagString.body.error.details.fields[0].field, '/body/tags');
    const emptyTag = await t.post('/v1/documents', { content: 'x', tags: ['ok', '!!'] });
    assert.equal(emptyTag.status, 400);
    assert.equal(emptyTag.body.error.details.fields[0].field, '/body/tags/1');
  });

  it('without a title, the first Markdown heading or the first sentence names the document', async () => {
    const t = await newTenant(0);
    const markdown = await t.post('/v1/documents', { content: 'Intro line.\n\n# Release notes\n\nMore text.' });
    assert.equal(markdown.body.document.title, 'Release notes');
    const plain = await t.post('/v1/documents', {
      content: 'Rivers carry sediment to the sea. They also carve valleys.',
    });
    assert.equal(plain.body.document.title, 'Rivers carry sediment to the sea.');
  });

  it('needs documents:write, and an organization key names the project in the body', async () => {
    const t = await newTenant(0);
    const reader = await t.keyWith({ scopes: ['documents:read'] });
    const refused = await call('POST', '/v1/documents', { content: 'x' }, { key: reader });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.details.missing_scope, 'documents:write');
    const org = await t.keyWith({ organization: true });
    const missing = await call('POST', '/v1/documents', { content: 'x' }, { key: org });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.details.fields[0].field, '/body/project_id');
    const ok = await call('POST', '/v1/documents', { content: 'x', project_id: t.projectId }, { key: org });
    assert.equal(ok.status, 201);
    assert.equal(ok.body.project_id, t.projectId);
  });

  it('an Idempotency-Key replays the first answer without indexing twice', async () => {
    const t = await newTenant(0);
    const headers = { 'Idempotency-Key': `doc-${crypto.randomUUID()}` };
    const first = await t.post('/v1/documents', { content: 'Once only.' }, { headers });
    const second = await t.post('/v1/documents', { content: 'Once only.' }, { headers });
    assert.equal(second.status, 201);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.equal(second.body.id, first.body.id);
    assert.equal((await t.get('/v1/documents')).body.sources.length, 1);
  });
});

describe('document tags and collections', () => {
  it('each tag puts the document in a project collection, reused by normalized name across documents', async () => {
    const t = await newTenant(0);
    const a = await t.post('/v1/documents', { content: 'First.', tags: ['Machine Learning', 'Research', 'research '] });
    const b = await t.post('/v1/documents', { content: 'Second.', tags: ['machine  learning', 'Ops'] });
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    const { sources } = (await t.get('/v1/documents')).body;
    const byId = new Map(sources.map((s: { id: string }) => [s.id, s]));
    const colsA = (byId.get(a.body.id) as { collections: { id: string; name: string }[] }).collections;
    const colsB = (byId.get(b.body.id) as { collections: { id: string; name: string }[] }).collections;
    assert.deepEqual(
      colsA.map((c) => c.name),
      ['Machine Learning', 'Research'],
    );
    assert.deepEqual(
      colsB.map((c) => c.name),
      ['Machine Learning', 'Ops'],
    );
    for (const c of [...colsA, ...colsB]) assert.deepEqual(Object.keys(c).sort(), ['id', 'name']);
    assert.equal(colsA[0]!.id, colsB[0]!.id, 'the same collection for both documents');
    const rows = await graph().read((tx) =>
      tx.runText(
        `MATCH (c:Collection:Knowledge {project_id: $p}) WHERE NOT c:Pending
       RETURN c.name AS name, c.normalized_name AS normalized, c.identity_key AS key, COUNT { (c)<-[:IN_COLLECTION]-(:Document) } AS documents
       ORDER BY name`,
        { p: t.projectId },
      ),
    );
    assert.deepEqual(
      rows.map((r) => [r.name, r.normalized, r.documents]),
      [
        ['Machine Learning', 'machine learning', 2],
        ['Ops', 'ops', 1],
        ['Research', 'research', 1],
      ],
    );
    assert.equal(rows[0]!.key, `${t.projectId}|Collection|machine learning`);
  });

  it('projects never share a collection', async () => {
    const a = await newTenant(0);
    const b = await newTenant(0);
    const ra = await a.post('/v1/documents', { content: 'A.', tags: ['Shared'] });
    const rb = await b.post('/v1/documents', { content: 'B.', tags: ['Shared'] });
    assert.equal(ra.status, 201);
    assert.equal(rb.status, 201);
    const ca = (await a.get('/v1/documents')).body.sources[0].collections[0];
    const cb = (await b.get('/v1/documents')).body.sources[0].collections[0];
    assert.equal(ca.name, 'Shared');
    assert.equal(cb.name, 'Shared');
    assert.notEqual(ca.id, cb.id);
  });

  it('documents indexed at the same time with a new tag end up in one collection', async () => {
    const t = await newTenant(0);
    const replies = await Promise.all(
      [0, 1, 2, 3].map((i) => t.post('/v1/documents', { content: `Parallel ${i}.`, tags: ['Concurrent'] })),
    );
    assert.deepEqual(
      replies.map((r) => r.status),
      [201, 201, 201, 201],
    );
    const rows = await graph().read((tx) =>
      tx.runText(
        'MATCH (c:Collection {project_id: $p}) RETURN count(c) AS n, COUNT { (:Document)-[:IN_COLLECTION]->(:Collection {project_id: $p}) } AS links',
        { p: t.projectId },
      ),
    );
    assert.deepEqual(rows[0], { n: 1, links: 4 });
  });
});
