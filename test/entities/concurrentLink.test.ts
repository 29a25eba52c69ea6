// An entity delete without detach is refused while anything links to it. A link made while the delete runs
// (after its first look found no dependants) must not be dropped by the delete's DETACH: the delete reads the
// dependants again under the entity's lock (docs/deltas.md, "Concurrent writes").
import assert from 'node:assert/strict';
import { call, newTenant } from '../support/api.js';
import { graph } from '../preflight/support.js';
import { waitForEmbeddings } from '../support/embeddings.js';
import { useRawDriver } from '../support/harness.js';
import { memory } from '../governance/support.js';

describe('an entity delete racing a new link to the entity', function () {
  this.timeout(120_000);
  const driver = useRawDriver();

  it('is refused (409) when the link commits while it waits, and the link stays (never a delete that drops it)', async () => {
    const t = await newTenant(0);
    // An entity with no dependants: its only memory is deleted, the entity stays.
    const first = await memory(t, { content: 'Zoe joined in May.', subject: 'Zoe' });
    const [row] = await graph().read((tx) =>
      tx.runText('MATCH (:Memory {id: $id})-[:HAS_SUBJECT]->(e:Entity) RETURN e.id AS id', { id: first.id }),
    );
    const entityId = String(row?.id);
    assert.equal((await call('DELETE', `/v1/memories/${first.id}`, undefined, { key: t.key })).status, 200);
    const other = await memory(t, { content: 'A note about the team.' });
    // The embedding worker's writes (it embeds the entity and the memories) are done before the race: its
    // transaction and the raw one could otherwise deadlock, and only the service's transactions are retried.
    await waitForEmbeddings(t.projectId);

    const session = driver().session();
    const tx = session.beginTransaction();
    let deleted;
    let linked = true;
    try {
      // A link to the entity, not yet committed.
      await tx.run(
        'MATCH (m:Memory {id: $m}), (e:Entity {id: $e}) ' +
          'CREATE (m)-[:HAS_SUBJECT {id: randomUUID(), project_id: $p}]->(e)',
        { m: other.id, e: entityId, p: t.projectId },
      );
      const answer = call('DELETE', `/v1/entities/${entityId}?apply=true`, undefined, { key: t.key });
      await new Promise((r) => setTimeout(r, 1_500));
      // Neo4j may pick this transaction as a deadlock's victim (the delete locks the entity while the link
      // waits to commit): the link then never existed, and the delete may go ahead. Only the service's
      // transactions are retried.
      await tx.commit().catch((error: { code?: string }) => {
        if (error.code !== 'Neo.TransientError.Transaction.DeadlockDetected') throw error;
        linked = false;
      });
      deleted = await answer;
    } finally {
      await session.close();
    }
    // The bug: the link committed and the delete went ahead anyway, dropping it with its DETACH.
    if (linked) assert.equal(deleted.status, 409, JSON.stringify(deleted.body));
    else assert.ok([200, 409].includes(deleted.status), JSON.stringify(deleted.body));
    const links = await graph().read((tx2) =>
      tx2.runText('MATCH (:Memory {id: $m})-[r:HAS_SUBJECT]->(:Entity {id: $e}) RETURN count(r) AS n', {
        m: other.id,
        e: entityId,
      }),
    );
    assert.equal(Number(links[0]?.n), linked ? 1 : 0);
  });
});
