// A write that meets a node another transaction is deleting: the node was committed when the write read it,
// so the write waits for the deleting transaction's lock and then finds the node gone. That is a concurrent
// change (409 inside, one rebuild of the draft), never a 500: the rebuilt write reads again and answers what
// is true now. Found by the fuzzer (PATCH /v1/memories/{id} racing DELETE on the same memory).
import assert from 'node:assert/strict';
import type { Driver } from 'neo4j-driver';
import { call, newTenant, type Tenant } from '../support/api.js';
import { waitForEmbeddings } from '../support/embeddings.js';
import { useRawDriver } from '../support/harness.js';

/** Runs `write` while a transaction that has deleted the memory (not yet committed) holds its lock, then commits. */
async function duringUncommittedDelete<T>(driver: Driver, memoryId: string, write: () => Promise<T>): Promise<T> {
  const session = driver.session();
  const tx = session.beginTransaction();
  try {
    const deleted = await tx.run('MATCH (m:Memory {id: $id}) DETACH DELETE m RETURN count(*) AS n', { id: memoryId });
    assert.equal(deleted.records[0]?.get('n').toNumber(), 1);
    const answer = write();
    // The write reads the committed memory (reads take no lock), then waits for this transaction's lock.
    await new Promise((r) => setTimeout(r, 1_500));
    await tx.commit();
    return await answer;
  } finally {
    await session.close();
  }
}

async function storedMemory(t: Tenant): Promise<string> {
  const created = await t.post('/v1/memories', {
    content: 'Ines works at Acme.',
    kind: 'fact',
    subject: 'Ines',
    predicate: 'works at',
    object: 'Acme',
    valid_from: '2020-01-01T00:00:00Z',
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  // The embedding worker's writes done first: its transaction must not take part in the race (a deadlock with
  // the raw transaction, which unlike the service's is not retried).
  await waitForEmbeddings(t.projectId);
  return created.body.id as string;
}

describe('a write racing a concurrent delete', function () {
  this.timeout(120_000);
  const driver = useRawDriver();

  for (const apply of [false, true]) {
    it(`${apply ? 'an applied' : 'a staged'} correction of a memory deleted meanwhile answers 404, not 500`, async () => {
      const t = await newTenant(0);
      const id = await storedMemory(t);
      const patched = await duringUncommittedDelete(driver(), id, () =>
        call(
          'PATCH',
          `/v1/memories/${id}?apply=${apply}`,
          { valid_to: '2024-01-01T00:00:00Z', forget_reason: '' },
          { key: t.key },
        ),
      );
      assert.equal(patched.status, 404, JSON.stringify(patched.body));
      assert.equal(patched.body.error.code, 'not_found');
      // Nothing half-written: the project holds one delta, the create's; the lost write staged nothing.
      const deltas = await t.get('/v1/deltas');
      assert.equal(deltas.status, 200);
      assert.deepEqual(
        deltas.body.deltas.map((d: { status: string }) => d.status),
        ['applied'],
      );
    });
  }

  it('a delete racing another delete answers 404 for the one that lost', async () => {
    const t = await newTenant(0);
    const id = await storedMemory(t);
    const deleted = await duringUncommittedDelete(driver(), id, () =>
      call('DELETE', `/v1/memories/${id}?apply=true`, undefined, { key: t.key }),
    );
    assert.equal(deleted.status, 404, JSON.stringify(deleted.body));
  });
});
