import assert from 'node:assert/strict';
import { cypher, mostUsedStatements } from '../../src/db/cypher.js';
import { lastRuns } from '../../src/db/warming.js';
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

  it("plans a write with its last run's parameter shape, the plan its next real run looks up (Neo4j caches a plan by its parameter types), keeping none of the values", async () => {
    const t = await newTenant(0);
    const made = await t.post('/v1/memories', {
      memories: [{ content: 'warm plan one' }, { content: 'warm plan two' }],
    });
    assert.equal(made.status, 201);
    const write = lastRuns.warming('deltas/create');
    assert.equal(write.read, false, 'a write is only planned');
    assert.equal(write.text, `EXPLAIN ${cypher('deltas/create')}`);
    // Its parameters' shape (the types Neo4j caches a plan by), none of the values it wrote.
    // The shape of a write within the last second (SHAPE_EVERY_MS): this one's, or another's of the same types.
    assert.match(String(write.params.project_id), /^x{36}$/, 'a string of the last run, as long');
    assert.match(String(write.params.delta_id), /^x{36}$/);
    assert.ok(Array.isArray(write.params.nodes) && write.params.nodes.length > 0, 'a list with its items');
    assert.ok('standing' in write.params, 'every parameter of the real run, the carried check too');
    const kept = JSON.stringify(write.params);
    for (const value of [t.projectId, made.body.delta_id, 'warm plan one'])
      assert.ok(!kept.includes(String(value)), `${String(value)} is not kept`);

    const found = await t.post('/v1/memories/search', { query: 'warm plan', mode: 'lexical' });
    assert.equal(found.status, 200);
    const reads = mostUsedStatements(200)
      .map((name) => lastRuns.warming(name))
      .filter((w) => w.read);
    assert.ok(reads.length > 0, 'a read last run in a read is run again');
    for (const r of reads) assert.ok(!r.text.startsWith('EXPLAIN'), r.text.slice(0, 80));
  });
});
