// An entity delete without detach is refused while anything links to it. A link made while the delete runs
// (after its first look found no dependants) must not be dropped by the delete's DETACH: the delete reads the
// dependants again under the entity's lock (docs/deltas.md, "Concurrent writes").
import assert from 'node:assert/strict';
import neo4j, { type Driver } from 'neo4j-driver';
import { call, newTenant } from '../support/api.js';
import { graph } from '../preflight/support.js';
import { harness } from '../support/harness.js';
import { memory } from '../governance/support.js';

function driverOf(): Driver {
  const { endpoints } = harness();
  const login = endpoints.neo4jAuth;
  return neo4j.driver(endpoints.neo4jUri, login ? neo4j.auth.basic(login.user, login.password) : undefined);
}

describe('an entity delete racing a new link to the entity', function () {
  this.timeout(120_000);

  it('is refused (409) when the link commits while it waits, and the link stays', async () => {
    const t = await newTenant(0);
    // An entity with no dependants: its only memory is deleted, the entity stays.
    const first = await memory(t, { content: 'Zoe joined in May.', subject: 'Zoe' });
    const [row] = await graph().read((tx) =>
      tx.runText('MATCH (:Memory {id: $id})-[:HAS_SUBJECT]->(e:Entity) RETURN e.id AS id', { id: first.id }),
    );
    const entityId = String(row?.id);
    assert.equal((await call('DELETE', `/v1/memories/${first.id}`, undefined, { key: t.key })).status, 200);
    const other = await memory(t, { content: 'A note about the team.' });

    const driver = driverOf();
    const session = driver.session();
    const tx = session.beginTransaction();
    let deleted;
    try {
      // A link to the entity, not yet committed: it holds the entity's lock.
      await tx.run(
        'MATCH (m:Memory {id: $m}), (e:Entity {id: $e}) ' +
          'CREATE (m)-[:HAS_SUBJECT {id: randomUUID(), project_id: $p}]->(e)',
        { m: other.id, e: entityId, p: t.projectId },
      );
      const answer = call('DELETE', `/v1/entities/${entityId}?apply=true`, undefined, { key: t.key });
      await new Promise((r) => setTimeout(r, 1_500));
      await tx.commit();
      deleted = await answer;
    } finally {
      await session.close();
      await driver.close();
    }
    assert.equal(deleted.status, 409, JSON.stringify(deleted.body));
    const links = await graph().read((tx2) =>
      tx2.runText('MATCH (:Memory {id: $m})-[r:HAS_SUBJECT]->(:Entity {id: $e}) RETURN count(r) AS n', {
        m: other.id,
        e: entityId,
      }),
    );
    assert.equal(Number(links[0]?.n), 1);
  });
});
