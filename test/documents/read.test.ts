import assert from 'node:assert/strict';
import { DeltaDraft } from '../../src/deltas/draft.js';
import { writeGoverned } from '../../src/deltas/service.js';
import { tenantToken } from '../../src/db/tenant.js';
import { call, newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { ISO, UUID } from './support.js';

const graph = () => harness().service.deps.graph;

/** What a loop does: stage (or apply) a delta creating an entity, tied to the document by USES_SOURCE. */
async function extractionDelta(t: Tenant, documentId: string, name: string, apply: boolean): Promise<string> {
  const draft = new DeltaDraft('loop', `extraction of ${documentId}`);
  draft.createNode(['Entity', 'Person'], {
    name,
    normalized_name: name.toLowerCase(),
    type: 'Person',
    tenant: tenantToken(t.projectId),
  });
  const actor = { projectId: t.projectId, organizationId: t.organizationId, keyId: t.keyId, requestId: 'test' };
  const outcome = await writeGoverned(graph(), draft, actor, apply);
  await graph().write((tx) =>
    tx.runText('MATCH (d:Delta {id: $delta}), (s:Document {id: $doc}) MERGE (d)-[:USES_SOURCE]->(s)', {
      delta: outcome.deltaId,
      doc: documentId,
    }),
  );
  return outcome.deltaId;
}

describe('GET /v1/documents', () => {
  it('list items carry exactly the fields of docs/documents.md', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/documents', { content: 'Tides follow the moon.', title: 'Tides', tags: ['Sea'] });
    const reply = await t.get('/v1/documents');
    assert.equal(reply.status, 200);
    assert.deepEqual(Object.keys(reply.body).sort(), ['has_more', 'next_cursor', 'request_id', 'sources']);
    assert.equal(reply.body.has_more, false);
    assert.equal(reply.body.next_cursor, null);
    const [item] = reply.body.sources;
    assert.deepEqual(Object.keys(item).sort(), [
      'addedAt',
      'addedByName',
      'collections',
      'entityCount',
      'extractionCount',
      'governanceStatus',
      'id',
      'mimeType',
      'ragReady',
      'sizeBytes',
      'status',
      'title',
      'type',
    ]);
    assert.equal(item.id, created.body.id);
    assert.equal(item.type, 'text');
    assert.equal(item.title, 'Tides');
    assert.equal(item.mimeType, 'text/plain');
    assert.equal(item.sizeBytes, Buffer.byteLength('Tides follow the moon.'));
    assert.deepEqual(item.status, { stage: 'indexed', processing: false, pendingReview: false, outdated: false });
    assert.equal(item.ragReady, true);
    assert.equal(item.extractionCount, 0);
    assert.equal(item.entityCount, 0);
    assert.equal(item.addedByName, 'test');
    assert.match(item.addedAt, ISO);
    assert.equal(item.collections.length, 1);
    assert.match(item.collections[0].id, UUID);
    assert.equal(item.collections[0].name, 'Sea');
    assert.equal(item.governanceStatus, 'active');
  });

  it('pages newest first with a cursor, without repeats', async () => {
    const t = await newTenant(0);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1)
      ids.push((await t.post('/v1/documents', { content: `Document number ${i}.` })).body.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    const pages: number[] = [];
    do {
      const reply: {
        status: number;
        body: { sources: { id: string }[]; has_more: boolean; next_cursor: string | null };
      } = await t.get(`/v1/documents?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(reply.status, 200);
      pages.push(reply.body.sources.length);
      seen.push(...reply.body.sources.map((s) => s.id));
      assert.equal(reply.body.has_more, reply.body.next_cursor !== null);
      cursor = reply.body.next_cursor;
    } while (cursor);
    assert.deepEqual(pages, [2, 2, 1]);
    assert.deepEqual(seen, [...ids].reverse());
    const bad = await t.get('/v1/documents?cursor=nonsense');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details.fields[0].field, '/query/cursor');
  });

  it('an organization key names the project in the query string', async () => {
    const t = await newTenant(0);
    await t.post('/v1/documents', { content: 'Org-visible.' });
    const org = await t.keyWith({ organization: true });
    const missing = await call('GET', '/v1/documents', undefined, { key: org });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.details.fields[0].field, '/query/project_id');
    const reply = await call('GET', `/v1/documents?project_id=${t.projectId}`, undefined, { key: org });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.sources.length, 1);
  });

  it("projects never see each other's documents", async () => {
    const a = await newTenant(0);
    const b = await newTenant(0);
    const doc = await a.post('/v1/documents', { content: 'Private to A.' });
    assert.deepEqual((await b.get('/v1/documents')).body.sources, []);
    const read = await b.get(`/v1/documents/${doc.body.id}`);
    assert.equal(read.status, 404);
    assert.equal(read.body.error.code, 'not_found');
    const foreign = await call('GET', `/v1/documents?project_id=${a.projectId}`, undefined, { key: b.key });
    assert.equal(foreign.status, 403);
  });

  it('needs documents:read', async () => {
    const t = await newTenant(0);
    const writer = await t.keyWith({ scopes: ['memories:read'] });
    const reply = await call('GET', '/v1/documents', undefined, { key: writer });
    assert.equal(reply.status, 403);
    assert.equal(reply.body.error.details.missing_scope, 'documents:read');
  });
});

describe('GET /v1/documents/:id', () => {
  it('answers exactly the fields of docs/documents.md under source', async () => {
    const t = await newTenant(0);
    const content = 'Glaciers move slowly. They carve valleys.';
    const created = await t.post('/v1/documents', { content, title: 'Ice' });
    const reply = await t.get(`/v1/documents/${created.body.id}`);
    assert.equal(reply.status, 200);
    assert.deepEqual(Object.keys(reply.body).sort(), ['request_id', 'source']);
    const s = reply.body.source;
    assert.deepEqual(Object.keys(s).sort(), [
      'addedAt',
      'addedBy',
      'extractedCharCount',
      'extractedTokenCount',
      'extractionCount',
      'id',
      'lastExtractionShape',
      'mimeType',
      'sizeBytes',
      'status',
      'title',
      'type',
      'updatedAt',
    ]);
    assert.equal(s.id, created.body.id);
    assert.equal(s.type, 'text');
    assert.equal(s.title, 'Ice');
    assert.equal(s.mimeType, 'text/plain');
    assert.equal(s.sizeBytes, Buffer.byteLength(content));
    assert.deepEqual(s.status, { stage: 'indexed', processing: false, pendingReview: false, outdated: false });
    assert.equal(s.extractionCount, 0);
    assert.equal(s.lastExtractionShape, null);
    assert.equal(s.extractedTokenCount, 0);
    assert.equal(s.extractedCharCount, 0);
    assert.equal(s.addedBy, t.keyId);
    assert.match(s.addedAt, ISO);
    assert.equal(s.updatedAt, s.addedAt);
  });

  it('an unknown id is a 404', async () => {
    const t = await newTenant(0);
    const reply = await t.get('/v1/documents/00000000-0000-4000-8000-000000000000');
    assert.equal(reply.status, 404);
    assert.equal(reply.body.error.code, 'not_found');
  });

  it('a document staged in a delta that is not applied is not readable', async () => {
    const t = await newTenant(0);
    const draft = new DeltaDraft('document', 'staged document');
    const id = draft.createNode(['Document'], {
      title: 'Staged',
      type: 'text',
      stage: 'indexed',
      tenant: tenantToken(t.projectId),
    });
    await writeGoverned(
      graph(),
      draft,
      { projectId: t.projectId, organizationId: t.organizationId, keyId: t.keyId, requestId: 'test' },
      false,
    );
    assert.equal((await t.get(`/v1/documents/${id}`)).status, 404);
    assert.deepEqual((await t.get('/v1/documents')).body.sources, []);
  });
});

describe('document status: pendingReview and entityCount', () => {
  it('pendingReview is true while an extraction delta using the document is staged; applied, its entities count', async () => {
    const t = await newTenant(0);
    const doc = await t.post('/v1/documents', { content: 'Ada Lovelace wrote notes.' });
    const deltaId = await extractionDelta(t, doc.body.id, 'Ada Lovelace', false);
    const staged = (await t.get('/v1/documents')).body.sources[0];
    assert.equal(staged.status.pendingReview, true);
    assert.equal(staged.entityCount, 0, 'staged entities are not counted');
    assert.equal((await t.get(`/v1/documents/${doc.body.id}`)).body.source.status.pendingReview, true);
    assert.equal((await t.post(`/v1/deltas/${deltaId}/apply`, {})).status, 200);
    const applied = (await t.get('/v1/documents')).body.sources[0];
    assert.equal(applied.status.pendingReview, false);
    assert.equal(applied.entityCount, 1);
    await extractionDelta(t, doc.body.id, 'Charles Babbage', true);
    assert.equal((await t.get('/v1/documents')).body.sources[0].entityCount, 2);
  });

  it('a rejected extraction delta leaves nothing pending', async () => {
    const t = await newTenant(0);
    const doc = await t.post('/v1/documents', { content: 'Grace Hopper found a moth.' });
    const deltaId = await extractionDelta(t, doc.body.id, 'Grace Hopper', false);
    assert.equal((await t.post(`/v1/deltas/${deltaId}/reject`, {})).status, 200);
    const item = (await t.get('/v1/documents')).body.sources[0];
    assert.equal(item.status.pendingReview, false);
    assert.equal(item.entityCount, 0);
  });
});
