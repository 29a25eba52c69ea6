// A shape's delete and a write through the shape that overlap. The delete counts what uses the shape under the
// shape's lock, which every write through the shape takes too, so one of them waits for the other: either the
// write commits and the delete is refused (409, in use), or the delete commits and the write is refused (400,
// no such shape). Before, a memory written while the delete waited kept the shape_id of a deleted shape.
// A raw transaction holds the shape's lock while both requests start, so both have passed their first checks.
import assert from 'node:assert/strict';
import type { Driver } from 'neo4j-driver';
import { call, newTenant, type Reply, type Tenant } from '../support/api.js';
import { useRawDriver } from '../support/harness.js';
import { crmDefinition } from './fixtures.js';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function whileShapeLocked(driver: Driver, id: string, requests: () => Promise<Reply>[]): Promise<Reply[]> {
  const session = driver.session();
  const tx = session.beginTransaction();
  try {
    await tx.run('MATCH (n:Shape {id: $id}) SET n.probe_lock = true REMOVE n.probe_lock', { id });
    const replies = requests();
    await pause(1_000);
    await tx.commit();
    return await Promise.all(replies);
  } finally {
    await session.close();
  }
}

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
    const general = '5e1f0000-0000-4000-8000-000000000002';
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
});
