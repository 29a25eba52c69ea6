// A shape's delete and a write through the shape that overlap. The delete counts what uses the shape under the
// shape's lock, which every write through the shape takes too, so one of them waits for the other: either the
// write commits and the delete is refused (409, in use), or the delete commits and the write is refused (400,
// no such shape). Before, a memory written while the delete waited kept the shape_id of a deleted shape.
// A raw transaction holds the shape's lock while both requests start, so both have passed their first checks.
import assert from 'node:assert/strict';
import type { Driver } from 'neo4j-driver';
import { call, newTenant, type Reply, type Tenant } from '../support/api.js';
import { useRawDriver } from '../support/harness.js';
import { whileLocked } from '../support/locks.js';
import { crmDefinition, GENERAL_SHAPE_ID } from './fixtures.js';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const whileShapeLocked = (driver: Driver, id: string, requests: () => Promise<Reply>[]) =>
  whileLocked(driver, { cypher: 'MATCH (n:Shape {id: $id})', params: { id } }, requests);

/** Committed or staged nodes of the project that name a shape which is not there. */
async function namingMissingShape(driver: Driver, t: Tenant): Promise<string[]> {
  const result = await driver.executeQuery(
    `MATCH (n:Knowledge {project_id: $p}) WHERE n.shape_id IS NOT NULL
       AND NOT EXISTS { MATCH (s:Shape {id: n.shape_id}) }
     RETURN n.id AS id`,
    { p: t.projectId },
  );
  return result.records.map((r) => String(r.get('id')));
}

describe('a shape deleted while something is written through it', function () {
  this.timeout(120_000);
  const driver = useRawDriver();

  for (const apply of [true, false]) {
    it(`either the ${apply ? 'applied' : 'staged'} memory or the delete is refused; nothing names a deleted shape`, async () => {
      const t = await newTenant(0);
      const id = (await t.post('/v1/shapes', { name: 'crm', ...crmDefinition() })).body.id as string;
      const [deleted, written] = await whileShapeLocked(driver(), id, () => {
        const del = call('DELETE', `/v1/shapes/${id}`, undefined, { key: t.key });
        return [del, pause(300).then(() => t.post('/v1/memories', { content: 'Acme renewed.', shape_id: id, apply }))];
      });
      if (deleted!.status === 200) {
        assert.equal(written!.status, 400, JSON.stringify(written!.body));
        assert.equal((await t.get(`/v1/shapes/${id}`)).status, 404);
      } else {
        assert.equal(deleted!.status, 409, JSON.stringify(deleted!.body));
        assert.match(JSON.stringify(deleted!.body), /in use/);
        assert.equal(written!.status, 201, JSON.stringify(written!.body));
        assert.equal((await t.get(`/v1/shapes/${id}`)).status, 200);
      }
      assert.deepEqual(await namingMissingShape(driver(), t), []);
    });
  }

  it('writes through a built-in shape take no shape lock: they answer while another transaction holds it', async () => {
    const t = await newTenant(0);
    const general = GENERAL_SHAPE_ID;
    const session = driver().session();
    const tx = session.beginTransaction();
    try {
      await tx.run('MATCH (n:Shape {id: $id}) SET n.probe_lock = true REMOVE n.probe_lock', { id: general });
      // Answered with the lock still held: a write that waited for it would never answer here.
      const written = await t.post('/v1/memories', { content: 'Acme renewed.', shape_id: general });
      assert.equal(written.status, 201, JSON.stringify(written.body));
    } finally {
      await tx.rollback();
      await session.close();
    }
  });

  it('a staged delete applied after a write through the shape is refused (shape_changes: shape_in_use); the shape stays', async () => {
    const t = await newTenant(0);
    const id = (await t.post('/v1/shapes', { name: 'crm', ...crmDefinition() })).body.id as string;
    const staged = await call('DELETE', `/v1/shapes/${id}?apply=false`, undefined, { key: t.key });
    assert.equal(staged.status, 200, JSON.stringify(staged.body));
    const audited = await t.post('/v1/preflight/audit', { delta_id: staged.body.delta_id });
    assert.deepEqual(
      (audited.body.findings as { evidence: { rule: string } }[]).filter((f) => f.evidence.rule === 'shape_in_use'),
      [],
    );
    // Written through the shape while the delete waits for review.
    const written = await t.post('/v1/memories', { content: 'Acme renewed.', shape_id: id });
    assert.equal(written.status, 201, JSON.stringify(written.body));
    const again = await t.post('/v1/preflight/audit', { delta_id: staged.body.delta_id });
    const found = (
      again.body.findings as { check: string; severity: string; evidence: Record<string, unknown> }[]
    ).filter((f) => f.evidence.rule === 'shape_in_use');
    assert.equal(found.length, 1, JSON.stringify(again.body));
    assert.equal(found[0]!.severity, 'error');
    assert.equal(found[0]!.check, 'shape_changes');
    assert.equal(found[0]!.evidence.dependent_count, 1);
    const applied = await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {});
    assert.equal(applied.status, 409, JSON.stringify(applied.body));
    assert.equal((await t.get(`/v1/shapes/${id}`)).status, 200);
    assert.deepEqual(await namingMissingShape(driver(), t), []);
  });

  it('reverting the create of a shape something was written through is refused, naming that write; the shape stays', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/shapes', { name: 'crm', ...crmDefinition() });
    const id = created.body.id as string;
    const written = await t.post('/v1/memories', { content: 'Acme renewed.', shape_id: id });
    const staged = await t.post('/v1/memories', { content: 'Beta churned.', shape_id: id, apply: false });
    const reverted = await t.post(`/v1/deltas/${created.body.delta_id}/revert`, {});
    assert.equal(reverted.status, 409, JSON.stringify(reverted.body));
    assert.deepEqual(
      [...(reverted.body.error.details.dependent_delta_ids as string[])].sort(),
      [written.body.delta_id, staged.body.delta_id].sort(),
    );
    assert.equal((await t.get(`/v1/shapes/${id}`)).status, 200);
    assert.deepEqual(await namingMissingShape(driver(), t), []);
  });
});
