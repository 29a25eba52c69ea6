import assert from 'node:assert/strict';
import { DeltaDraft } from '../../src/deltas/draft.js';
import { writeGoverned } from '../../src/deltas/service.js';
import { call, newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';

const MEMORY_SHAPE = '5e1f0000-0000-4000-8000-000000000001';
const graph = () => harness().service.deps.graph;

/** A committed shape of the project, as the shapes area stores one. */
async function projectShape(t: Tenant): Promise<string> {
  const draft = new DeltaDraft('shape', 'test shape');
  const id = draft.createNode(['Shape'], {
    name: 'people',
    version: 1,
    status: 'published',
    description: 'test',
    schema_tag: 'test.people/v1',
  });
  await writeGoverned(
    graph(),
    draft,
    { projectId: t.projectId, organizationId: t.organizationId, keyId: t.keyId, requestId: 'test' },
    true,
  );
  return id;
}

describe('POST /v1/documents/:id/extract', () => {
  it('answers 202 with exactly the handoff of docs/documents.md', async () => {
    const t = await newTenant(0);
    const doc = await t.post('/v1/documents', { content: 'Ada Lovelace worked with Charles Babbage.' });
    const reply = await t.post(`/v1/documents/${doc.body.id}/extract`, { shape_id: MEMORY_SHAPE });
    assert.equal(reply.status, 202);
    assert.deepEqual(Object.keys(reply.body).sort(), ['document_id', 'next_action', 'request_id', 'status']);
    assert.equal(reply.body.status, 'ready');
    assert.equal(reply.body.document_id, doc.body.id);
    assert.deepEqual(reply.body.next_action, {
      method: 'POST',
      path: '/v1/extractions/shape',
      body: { project_id: t.projectId, source_file_id: doc.body.id },
    });
    assert.equal(reply.headers.get('x-request-id'), reply.body.request_id);
  });

  it('writes nothing: the document stays indexed and no delta is added', async () => {
    const t = await newTenant(0);
    const doc = await t.post('/v1/documents', { content: 'Unchanged by a handoff.' });
    await t.post(`/v1/documents/${doc.body.id}/extract`, { shape_id: MEMORY_SHAPE });
    const source = (await t.get(`/v1/documents/${doc.body.id}`)).body.source;
    assert.equal(source.status.stage, 'indexed');
    assert.equal(source.updatedAt, source.addedAt);
    const [row] = await graph().read((tx) =>
      tx.runText('MATCH (d:Delta {project_id: $p}) RETURN count(d) AS n', { p: t.projectId }),
    );
    assert.equal(row!.n, 1);
  });

  it("a shape of the project itself is accepted; another project's shape is a 400", async () => {
    const a = await newTenant(0);
    const b = await newTenant(0);
    const shapeOfB = await projectShape(b);
    const docA = await a.post('/v1/documents', { content: 'A text.' });
    const docB = await b.post('/v1/documents', { content: 'B text.' });
    assert.equal((await b.post(`/v1/documents/${docB.body.id}/extract`, { shape_id: shapeOfB })).status, 202);
    const refused = await a.post(`/v1/documents/${docA.body.id}/extract`, { shape_id: shapeOfB });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.details.fields[0].field, '/body/shape_id');
  });

  it('an unknown shape is a 400 naming /body/shape_id; a missing one too', async () => {
    const t = await newTenant(0);
    const doc = await t.post('/v1/documents', { content: 'Some text.' });
    const unknown = await t.post(`/v1/documents/${doc.body.id}/extract`, { shape_id: 'no-such-shape' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.code, 'invalid_request');
    assert.deepEqual(
      unknown.body.error.details.fields.map((f: { field: string }) => f.field),
      ['/body/shape_id'],
    );
    const missing = await t.post(`/v1/documents/${doc.body.id}/extract`, {});
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body.error.details.fields, [{ field: '/body/shape_id', reason: 'is required' }]);
  });

  it('an unknown document, or one of another project, is a 404', async () => {
    const a = await newTenant(0);
    const b = await newTenant(0);
    const unknown = await a.post('/v1/documents/00000000-0000-4000-8000-000000000000/extract', {
      shape_id: MEMORY_SHAPE,
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'not_found');
    const docB = await b.post('/v1/documents', { content: 'B only.' });
    assert.equal((await a.post(`/v1/documents/${docB.body.id}/extract`, { shape_id: MEMORY_SHAPE })).status, 404);
  });

  it('needs documents:write', async () => {
    const t = await newTenant(0);
    const doc = await t.post('/v1/documents', { content: 'Text.' });
    const reader = await t.keyWith({ scopes: ['documents:read'] });
    const reply = await call(
      'POST',
      `/v1/documents/${doc.body.id}/extract`,
      { shape_id: MEMORY_SHAPE },
      { key: reader },
    );
    assert.equal(reply.status, 403);
    assert.equal(reply.body.error.details.missing_scope, 'documents:write');
  });
});
