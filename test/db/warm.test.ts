import assert from 'node:assert/strict';
import { mostUsedStatements } from '../../src/db/cypher.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';

describe('Graph warm-up after an outage', () => {
  it('warms the statements this process ran most and writes nothing: reads run again in read transactions, writes are only planned', async () => {
    const t = await newTenant(0);
    for (let i = 0; i < 3; i += 1) {
      const made = await t.post('/v1/memories', { content: `warm-up memory ${i}`, kind: 'fact' });
      assert.equal(made.status, 201);
    }
    const found = await t.post('/v1/memories/search', { query: 'warm-up memory', mode: 'lexical' });
    assert.equal(found.status, 200);
    const used = mostUsedStatements(30);
    assert.ok(
      used.includes('deltas/create'),
      `a governed write's statement is among the most used: ${used.join(', ')}`,
    );
    assert.ok(used.includes('auth/find_key'), 'so is the authentication read');

    const graph = harness().service.deps.graph;
    const count = async () =>
      (
        await graph.read((tx) =>
          tx.runText(
            'MATCH (n) WHERE n.project_id = $p RETURN count(n) AS nodes, count { (:Delta {project_id: $p}) } AS deltas',
            { p: t.projectId },
          ),
        )
      )[0];
    const before = await count();
    const warmed = await graph.warm();
    assert.ok(warmed >= Math.min(used.length, 5), `warmed ${warmed} of ${used.length}`);
    assert.deepEqual(await count(), before, 'warming wrote nothing');
  });
});
