// Two governed writes of one memory at the same time run one after the other (docs/deltas.md, "Concurrent
// writes"). Each test holds the lock of the memory's subject entity in a raw transaction: the first request
// gets as far as the memory and then waits for the entity, the second is sent while it waits. When the raw
// transaction lets go, the first commits, and the second must act on what the first committed. Found by a chaos run of random
// concurrent corrections, reverts and deletes, which left fact edges pointing at deleted memories.
import assert from 'node:assert/strict';
import type { Driver } from 'neo4j-driver';
import { call, newTenant, type Reply, type Tenant } from '../support/api.js';
import { graph } from '../preflight/support.js';
import { waitForEmbeddings } from '../support/embeddings.js';
import { useRawDriver } from '../support/harness.js';
import { fact, memory } from '../governance/support.js';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends `first`, then `second`, while a raw transaction holds the memory's subject's lock; then releases it. */
async function queuedOnSubject(
  driver: Driver,
  memoryId: string,
  first: () => Promise<Reply>,
  second: () => Promise<Reply>,
): Promise<[Reply, Reply]> {
  const session = driver.session();
  const tx = session.beginTransaction();
  try {
    const locked = await tx.run(
      'MATCH (:Memory {id: $id})-[:HAS_SUBJECT]->(e:Entity) SET e.test_lock = true REMOVE e.test_lock RETURN e.id AS id',
      { id: memoryId },
    );
    assert.equal(locked.records.length, 1);
    const a = first();
    await pause(700);
    const b = second();
    await pause(700);
    await tx.commit();
    return [await a, await b];
  } finally {
    await session.close();
  }
}

/** Committed fact edges of the project whose memory is not a committed memory. */
async function orphanFactEdges(t: Tenant): Promise<string[]> {
  const rows = await graph().read((tx) =>
    tx.runText(
      'MATCH (:Entity {project_id: $p})-[r]->(:Entity) WHERE r.memory_id IS NOT NULL AND r.pending IS NULL ' +
        'AND NOT EXISTS { MATCH (m:Memory {id: r.memory_id}) WHERE NOT m:Pending } RETURN r.memory_id AS id',
      { p: t.projectId },
    ),
  );
  return rows.map((r) => String(r.id));
}

/** A committed fact memory with its fact edge, once the embedding worker's writes are done (not part of the race). */
async function employment(t: Tenant): Promise<{ id: string; delta_id: string }> {
  const created = await memory(t, fact('Ines', 'works at', 'Acme', { valid_from: '2020-01-01T00:00:00Z' }));
  await waitForEmbeddings(t.projectId);
  return created;
}

const close = (t: Tenant, id: string) =>
  call('POST', `/v1/memories/${id}/close`, { valid_to: '2024-01-01T00:00:00Z' }, { key: t.key });

describe('concurrent writes of one memory', function () {
  this.timeout(120_000);
  const driver = useRawDriver();

  it('a revert of its create racing a close: refused naming the close, or the close finds it gone', async () => {
    const t = await newTenant(0);
    const created = await employment(t);
    const [reverted, closed] = await queuedOnSubject(
      driver(),
      created.id,
      () => call('POST', `/v1/deltas/${created.delta_id}/revert`, {}, { key: t.key }),
      () => close(t, created.id),
    );
    if (closed.status === 200) {
      assert.equal(reverted.status, 409, JSON.stringify(reverted.body));
      assert.deepEqual(reverted.body.error.details.dependent_delta_ids, [closed.body.delta_id]);
      assert.equal((await t.get(`/v1/memories/${created.id}`)).status, 200);
    } else {
      assert.equal(closed.status, 404, JSON.stringify(closed.body));
      assert.equal(reverted.status, 200, JSON.stringify(reverted.body));
      assert.equal((await t.get(`/v1/memories/${created.id}`)).status, 404);
    }
    assert.deepEqual(await orphanFactEdges(t), []);
  });

  it('a delete racing a close: the delete answers 200 and takes the fact edge the close left', async () => {
    const t = await newTenant(0);
    const created = await employment(t);
    const [closed, deleted] = await queuedOnSubject(
      driver(),
      created.id,
      () => close(t, created.id),
      () => call('DELETE', `/v1/memories/${created.id}?apply=true`, undefined, { key: t.key }),
    );
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.ok([200, 404].includes(closed.status), JSON.stringify(closed.body));
    assert.equal((await t.get(`/v1/memories/${created.id}`)).status, 404);
    assert.deepEqual(await orphanFactEdges(t), []);
  });

  it('two corrections at once: the second applies to what the first committed', async () => {
    const t = await newTenant(0);
    const created = await employment(t);
    const [moved, closed] = await queuedOnSubject(
      driver(),
      created.id,
      () => call('PATCH', `/v1/memories/${created.id}`, { object: 'Globex' }, { key: t.key }),
      () => close(t, created.id),
    );
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const edges = await graph().read((tx) =>
      tx.runText(
        'MATCH (s:Entity)-[r]->(o:Entity) WHERE r.memory_id = $id AND r.pending IS NULL ' +
          'RETURN s.name + "-" + type(r) + "->" + o.name AS text, toString(r.valid_to) AS to',
        { id: created.id },
      ),
    );
    assert.deepEqual(
      edges.map((e) => `${String(e.text)} until ${String(e.to)}`),
      ['Ines-WORKS_FOR->Globex until 2024-01-01T00:00:00Z'],
    );
  });
});
