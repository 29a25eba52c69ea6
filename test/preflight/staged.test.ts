// Deleting or retiring what other staged deltas depend on is a warning naming those deltas
// (cypher/preflight/staged_dependents.cypher, docs/preflight.md).
import assert from 'node:assert/strict';
import { newTenant, type Tenant } from '../support/api.js';
import { audit, type FindingBody } from './support.js';
import { del, memory } from '../governance/support.js';
import { createDocument, startExtraction, waitForLoop } from '../loops/support.js';

async function staged(t: Tenant, deltaId: string): Promise<{ disposition: string; found: FindingBody[] }> {
  const reply = await audit(t, deltaId);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return {
    disposition: reply.body.disposition,
    found: (reply.body.findings as FindingBody[]).filter((f) => f.check === 'staged_dependents'),
  };
}

const people = {
  entity_types: [
    { label: 'Person', properties: [{ name: 'name', type: 'string' }] },
    { label: 'Organization', properties: [{ name: 'name', type: 'string' }] },
  ],
  relationship_types: [{ type: 'WORKS_FOR', from: 'Person', to: 'Organization', cardinality: 'many_to_one' }],
};

describe('preflight: what other staged deltas depend on', function () {
  this.timeout(300_000);

  it("deleting a shape used by a staged extraction warns with that delta's id", async () => {
    const t = await newTenant(100);
    const shape = await t.post('/v1/shapes', { name: 'people', ...people });
    assert.equal(shape.status, 201, JSON.stringify(shape.body));
    // The deletion is staged while nothing uses the shape ...
    const deletion = await del(t, `/v1/shapes/${shape.body.id}?apply=false`);
    assert.equal(deletion.status, 200, JSON.stringify(deletion.body));
    assert.deepEqual((await staged(t, deletion.body.delta_id)).found, []);
    // ... then an extraction through it starts, staging its work for review.
    const doc = await createDocument(t, 'Ada Lovelace works for Analytical Engines Ltd.');
    const started = await startExtraction(t, doc, { shapeIds: [shape.body.id] });
    await waitForLoop(t, started.loop_id);
    assert.equal((await t.get(`/v1/deltas/${started.delta_id}`)).body.delta.status, 'staged');
    const after = await staged(t, deletion.body.delta_id);
    assert.equal(after.found.length, 1, JSON.stringify(after.found));
    const [finding] = after.found;
    assert.equal(finding!.severity, 'warning');
    assert.equal(finding!.evidence.rule, 'shape_used_by_staged');
    assert.deepEqual(finding!.evidence.dependent_delta_ids, [started.delta_id]);
    assert.ok(finding!.message.includes(started.delta_id), finding!.message);
    assert.deepEqual(finding!.node_ids, [shape.body.id]);
    assert.equal(after.disposition, 'ReviewRequired');
    // Once the extraction's delta is rejected, nothing depends on the shape any more.
    assert.equal((await t.post(`/v1/deltas/${started.delta_id}/reject`, {})).status, 200);
    assert.deepEqual((await staged(t, deletion.body.delta_id)).found, []);
  });

  it("retiring a shape a staged memory is made through warns with that delta's id", async () => {
    const t = await newTenant(0);
    const shape = await t.post('/v1/shapes', { name: 'people', ...people });
    const pending = await t.post('/v1/memories', { content: 'Pending review.', shape_id: shape.body.id, apply: false });
    assert.equal(pending.status, 201, JSON.stringify(pending.body));
    const retire = await t.post(`/v1/shapes/${shape.body.id}/retire`, { apply: false });
    assert.equal(retire.status, 200, JSON.stringify(retire.body));
    const { found } = await staged(t, retire.body.delta_id);
    assert.deepEqual(
      found.map((f) => [f.evidence.rule, f.evidence.dependent_delta_ids]),
      [['shape_used_by_staged', [pending.body.delta_id]]],
    );
    assert.match(found[0]!.message, /^Retiring shape people v1/);
  });

  it("deleting an entity a staged fact points to warns with that delta's id; an unrelated staged delta is not named", async () => {
    const t = await newTenant(0);
    await memory(t, { content: 'Acme exists.', kind: 'fact', subject: 'Acme', predicate: 'is a', object: 'Company' });
    const acme = (await t.get('/v1/graph/nodes?label=Entity&property=name&value=Acme')).body.nodes[0].id as string;
    const pointing = await t.post('/v1/memories', {
      content: 'Ada works for Acme.',
      kind: 'fact',
      subject: 'Ada',
      predicate: 'works for',
      object: 'Acme',
      apply: false,
    });
    assert.equal(pointing.status, 201, JSON.stringify(pointing.body));
    await t.post('/v1/memories', { content: 'Unrelated note.', apply: false });
    const deletion = await del(t, `/v1/entities/${acme}?apply=false&detach=true`);
    assert.equal(deletion.status, 200, JSON.stringify(deletion.body));
    const { found } = await staged(t, deletion.body.delta_id);
    assert.deepEqual(
      found.map((f) => [f.evidence.rule, f.evidence.dependent_delta_ids, f.node_ids]),
      [['node_used_by_staged', [pointing.body.delta_id], [acme]]],
    );
  });
});
