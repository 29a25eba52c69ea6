import assert from 'node:assert/strict';
import { call, newTenant } from '../support/api.js';
import { DeltaDraft } from '../../src/deltas/draft.js';
import { revertDelta, writeGoverned } from '../../src/deltas/service.js';
import { harness } from '../support/harness.js';

const graph = () => harness().service.deps.graph;

async function countProject(projectId: string): Promise<{ nodes: number; pending: number; rels: number }> {
  const [row] = await graph().read((tx) =>
    tx.runText(
      `MATCH (n:Knowledge {project_id: $p})
       OPTIONAL MATCH (n)-[r]->(:Knowledge)
       RETURN count(DISTINCT n) AS nodes, count(DISTINCT CASE WHEN n:Pending THEN n END) AS pending, count(DISTINCT r) AS rels`,
      { p: projectId },
    ),
  );
  return { nodes: Number(row?.nodes), pending: Number(row?.pending), rels: Number(row?.rels) };
}

describe('delta lifecycle', () => {
  it('reject removes the staged subgraph and keeps the delta as a rejected record', async () => {
    const t = await newTenant(0);
    const staged = await t.post('/v1/memories', { content: 'Maybe true.', subject: 'Rumours', apply: false });
    assert.deepEqual(await countProject(t.projectId), { nodes: 2, pending: 2, rels: 1 });
    const rejected = await t.post(`/v1/deltas/${staged.body.delta_id}/reject`, { reason: 'not verified' });
    assert.equal(rejected.status, 200);
    assert.equal(rejected.body.delta.status, 'rejected');
    assert.equal(rejected.body.delta.reason, 'not verified');
    assert.deepEqual(rejected.body.delta.changes, []);
    assert.deepEqual(await countProject(t.projectId), { nodes: 0, pending: 0, rels: 0 });
    const again = await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {});
    assert.equal(again.status, 409);
  });

  it('revert removes what an applied delta created', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/memories', { content: 'Reverted soon.', subject: 'Temporary' });
    assert.equal((await countProject(t.projectId)).nodes, 2);
    const reverted = await t.post(`/v1/deltas/${created.body.delta_id}/revert`, { reason: 'mistake' });
    assert.equal(reverted.status, 200);
    assert.equal(reverted.body.delta.status, 'reverted');
    assert.ok(reverted.body.delta.reverted_at);
    assert.equal(reverted.body.delta.reverted_by, t.keyId);
    assert.deepEqual(await countProject(t.projectId), { nodes: 0, pending: 0, rels: 0 });
    assert.equal((await t.get(`/v1/memories/${created.body.id}`)).status, 404);
  });

  it('revert is refused with 409 naming the later delta that depends on it', async () => {
    const t = await newTenant(0);
    const first = await t.post('/v1/memories', {
      content: 'Ada founded the club.',
      subject: { name: 'Ada', type: 'Person' },
    });
    const second = await t.post('/v1/memories', {
      content: 'Ada chairs the club.',
      subject: { name: 'Ada', type: 'Person' },
    });
    const refused = await t.post(`/v1/deltas/${first.body.delta_id}/revert`, {});
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.body.error.details.dependent_delta_ids, [second.body.delta_id]);
    assert.match(refused.body.error.message, new RegExp(second.body.delta_id));
    assert.equal((await t.post(`/v1/deltas/${second.body.delta_id}/revert`, {})).status, 200);
    assert.equal((await t.post(`/v1/deltas/${first.body.delta_id}/revert`, {})).status, 200);
    assert.equal((await countProject(t.projectId)).nodes, 0);
  });

  it('of two concurrent applies of one delta exactly one wins and the other gets 409', async () => {
    const t = await newTenant(0);
    const staged = await t.post('/v1/memories', {
      memories: Array.from({ length: 20 }, (_, i) => ({ content: `race ${i}`, subject: 'Race' })),
      apply: false,
    });
    const replies = await Promise.all([0, 1, 2].map(() => t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {})));
    assert.deepEqual(replies.map((r) => r.status).sort(), [200, 409, 409]);
    assert.deepEqual(await countProject(t.projectId), { nodes: 21, pending: 0, rels: 20 });
  });

  it('an applied delta cannot be rejected and a staged one cannot be reverted', async () => {
    const t = await newTenant(0);
    const applied = await t.post('/v1/memories', { content: 'done' });
    assert.equal((await t.post(`/v1/deltas/${applied.body.delta_id}/reject`, {})).status, 409);
    const staged = await t.post('/v1/memories', { content: 'pending', apply: false });
    assert.equal((await t.post(`/v1/deltas/${staged.body.delta_id}/revert`, {})).status, 409);
  });

  it('revert restores a deleted node with its relationships and undoes updates', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/memories', { content: 'Keep me.', subject: 'Anchor' });
    const actor = { projectId: t.projectId, organizationId: t.organizationId, keyId: t.keyId, requestId: 'test' };
    const update = new DeltaDraft('test', 'edit');
    update.updateNode(created.body.id, { content: 'Edited.', source_context: 'added' });
    const edited = await writeGoverned(graph(), update, actor, true);
    assert.equal((await t.get(`/v1/memories/${created.body.id}`)).body.memory.properties.content, 'Edited.');
    await revertDelta(graph(), edited.deltaId, actor, null);
    const restored = (await t.get(`/v1/memories/${created.body.id}`)).body.memory;
    assert.equal(restored.properties.content, 'Keep me.');
    assert.equal(restored.properties.source_context, null);
    const removal = new DeltaDraft('test', 'delete');
    removal.deleteNode(created.body.id);
    const deleted = await writeGoverned(graph(), removal, actor, true);
    assert.equal((await t.get(`/v1/memories/${created.body.id}`)).status, 404);
    await revertDelta(graph(), deleted.deltaId, actor, null);
    const back = await t.get(`/v1/memories/${created.body.id}`);
    assert.equal(back.status, 200);
    assert.equal(back.body.memory.properties.content, 'Keep me.');
    const edges = await t.post('/v1/memories/search', { query: 'keep' });
    assert.equal(edges.body.edges[0]?.type, 'HAS_SUBJECT');
  });

  it('revert of a delta that deleted two connected nodes restores both and the link between them once', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/memories', { content: 'Linked pair.', subject: 'Pair anchor' });
    const actor = { projectId: t.projectId, organizationId: t.organizationId, keyId: t.keyId, requestId: 'test' };
    const [entity] = await graph().read((tx) =>
      tx.runText('MATCH (:Memory {id: $id})-[:HAS_SUBJECT]->(e) RETURN e.id AS id', { id: created.body.id }),
    );
    const removal = new DeltaDraft('test', 'delete both');
    removal.deleteNode(created.body.id);
    removal.deleteNode(String(entity?.id));
    const deleted = await writeGoverned(graph(), removal, actor, true);
    assert.equal(deleted.status, 'applied');
    assert.equal((await countProject(t.projectId)).nodes, 0);
    await revertDelta(graph(), deleted.deltaId, actor, null);
    assert.deepEqual(await countProject(t.projectId), { nodes: 2, pending: 0, rels: 1 });
    const [link] = await graph().read((tx) =>
      tx.runText('MATCH (m:Memory {id: $id})-[r:HAS_SUBJECT]->(e:Entity) RETURN e.name AS name, count(r) AS n', {
        id: created.body.id,
      }),
    );
    assert.deepEqual(link, { name: 'Pair anchor', n: 1 });
    const [snapshots] = await graph().read((tx) =>
      tx.runText('MATCH (:Delta {id: $d})-[:HAS_CHANGE]->()-[:HAD_RELATIONSHIP]->(s) RETURN count(s) AS n', {
        d: deleted.deltaId,
      }),
    );
    assert.equal(snapshots?.n, 0, 'snapshots are consumed by the revert');
  });

  it('lists deltas newest first with a status filter and cursor pages', async () => {
    const t = await newTenant(0);
    for (let i = 0; i < 5; i += 1) await t.post('/v1/memories', { content: `m${i}`, apply: i % 2 === 0 });
    const staged = await t.get('/v1/deltas?status=staged');
    assert.equal(staged.body.deltas.length, 2);
    assert.ok(staged.body.deltas.every((d: { status: string }) => d.status === 'staged'));
    const page1 = await t.get('/v1/deltas?limit=2');
    assert.equal(page1.body.deltas.length, 2);
    assert.equal(page1.body.has_more, true);
    const page2 = await t.get(`/v1/deltas?limit=2&cursor=${page1.body.next_cursor}`);
    const page3 = await t.get(`/v1/deltas?limit=2&cursor=${page2.body.next_cursor}`);
    assert.equal(page3.body.deltas.length, 1);
    assert.equal(page3.body.has_more, false);
    const ids = [...page1.body.deltas, ...page2.body.deltas, ...page3.body.deltas].map((d: { id: string }) => d.id);
    assert.equal(new Set(ids).size, 5);
    assert.equal((await t.get('/v1/deltas?cursor=garbage')).status, 400);
    assert.equal((await t.get('/v1/deltas?status=unknown')).status, 400);
  });

  it('a delta of another project is not found', async () => {
    const a = await newTenant(0);
    const b = await newTenant(0);
    const staged = await a.post('/v1/memories', { content: 'private', apply: false });
    assert.equal((await b.get(`/v1/deltas/${staged.body.delta_id}`)).status, 404);
    assert.equal((await b.post(`/v1/deltas/${staged.body.delta_id}/apply`, {})).status, 404);
  });

  it('applying needs the deltas:apply scope', async () => {
    const t = await newTenant(0);
    const staged = await t.post('/v1/memories', { content: 'x', apply: false });
    const writer = await t.keyWith({ scopes: ['memories:write', 'deltas:read'] });
    const reply = await call('POST', `/v1/deltas/${staged.body.delta_id}/apply`, {}, { key: writer });
    assert.equal(reply.status, 403);
    assert.equal(reply.body.error.details.missing_scope, 'deltas:apply');
  });
});
