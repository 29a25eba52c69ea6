// A revert is refused while a later delta depends on what it created or changed, and a later delta that deleted
// one of those nodes depends on it too. The dependents check walked the graph from the delta's nodes; a node a
// later delta deleted is gone with its links, so that delta was not found and the revert went ahead: reverting a
// re-index after the document was deleted restored the old chunks beside no document, and reverting a memory's
// correction after the memory was deleted restored a fact edge of a memory that is gone (found by a chaos run of
// documents, entities, memories and reviews at once).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { newTenant, type Tenant } from '../support/api.js';
import { graph, planOperators } from '../preflight/support.js';
import { fact, memory } from '../governance/support.js';
import { call } from '../support/api.js';

async function refusedNaming(t: Tenant, deltaId: string, dependent: string): Promise<void> {
  const refused = await t.post(`/v1/deltas/${deltaId}/revert`, {});
  assert.equal(refused.status, 409, JSON.stringify(refused.body));
  assert.deepEqual(refused.body.error.details.dependent_delta_ids, [dependent]);
  assert.equal((await t.get(`/v1/deltas/${deltaId}`)).body.delta.status, 'applied');
}

/** Committed nodes and relationships of the project. */
async function committed(projectId: string): Promise<{ nodes: number; rels: number }> {
  const [row] = await graph().read((tx) =>
    tx.runText(
      `MATCH (n:Knowledge {project_id: $p}) WHERE NOT n:Pending
       RETURN count(n) AS nodes, COUNT { MATCH (a:Knowledge {project_id: $p})-[r]->(:Knowledge) WHERE r.pending IS NULL } AS rels`,
      { p: projectId },
    ),
  );
  return { nodes: Number(row?.nodes), rels: Number(row?.rels) };
}

describe('revert after a later delta deleted what it touched', function () {
  this.timeout(120_000);

  it('a re-index cannot be reverted once its document was deleted: 409 naming the delete, nothing restored', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/documents', { title: 'Handbook', content: 'First version. '.repeat(60) });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;
    const reindexed = await t.post(`/v1/documents/${id}/reindex`, { content: 'Second version. '.repeat(80) });
    assert.equal(reindexed.status, 200, JSON.stringify(reindexed.body));
    const deleted = await call('DELETE', `/v1/documents/${id}`, undefined, { key: t.key });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    const before = await committed(t.projectId);
    await refusedNaming(t, reindexed.body.delta_id, deleted.body.delta_id);
    assert.deepEqual(await committed(t.projectId), before);
    // Reverted in order, latest first, both go back: the document with its second version's chunks, then its first.
    assert.equal((await t.post(`/v1/deltas/${deleted.body.delta_id}/revert`, {})).status, 200);
    assert.equal((await t.post(`/v1/deltas/${reindexed.body.delta_id}/revert`, {})).status, 200);
    const doc = await t.get(`/v1/documents/${id}`);
    assert.equal(doc.status, 200);
    const [row] = await graph().read((tx) =>
      tx.runText(
        'MATCH (d:Document {id: $id})-[:HAS_CHUNK]->(c:Chunk) RETURN count(c) AS n, collect(DISTINCT split(c.text, ".")[0]) AS texts',
        { id },
      ),
    );
    assert.deepEqual(row?.texts, ['First version']);
  });

  it("a memory's correction cannot be reverted once the memory was deleted: no fact edge comes back without it", async () => {
    const t = await newTenant(0);
    const created = await memory(t, fact('Ines', 'works at', 'Acme'));
    const moved = await call('PATCH', `/v1/memories/${created.id}`, { object: 'Globex' }, { key: t.key });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const deleted = await call('DELETE', `/v1/memories/${created.id}`, undefined, { key: t.key });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    await refusedNaming(t, moved.body.delta_id, deleted.body.delta_id);
    const edges = await graph().read((tx) =>
      tx.runText('MATCH (:Entity)-[r]->(:Entity) WHERE r.memory_id = $id RETURN count(r) AS n', { id: created.id }),
    );
    assert.equal(edges[0]?.n, 0);
  });

  it('a create cannot be reverted once what it created was deleted: 409 naming the delete', async () => {
    const t = await newTenant(0);
    const created = await memory(t, { content: 'Reverted late.', kind: 'observation' });
    const deleted = await call('DELETE', `/v1/memories/${created.id}`, undefined, { key: t.key });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    await refusedNaming(t, created.delta_id, deleted.body.delta_id);
  });

  it('finds them by index seeks: the plan scans no label, relationship type or index', async () => {
    const text = readFileSync('cypher/deltas/revert_dependents.cypher', 'utf8');
    const operators = await planOperators(text, { delta_id: '00000000-0000-4000-8000-000000000000' });
    assert.deepEqual(
      operators.filter((o) => /Scan/.test(o)),
      [],
      operators.join(', '),
    );
  });
});
