import assert from 'node:assert/strict';
import { cypher, mostUsedStatements } from '../../src/db/cypher.js';
import { lastRuns } from '../../src/db/warming.js';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { waitForMentions } from '../support/mentions.js';

describe('Graph warm-up after an outage', () => {
  it('warms the statements this process ran most and writes nothing: reads run again in read transactions, writes are planned or rehearsed and rolled back', async () => {
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
    // The mention worker writes the memories' terms after the write: done before counting what warming writes.
    await waitForMentions(t.projectId);
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

  it("rehearses a governed write with its last run's parameter shape (the plan its next real run looks up), into the project it wrote to, with new ids, and rolls it back: it does its work and leaves nothing", async () => {
    const t = await newTenant(0);
    const made = await t.post('/v1/memories', {
      memories: [{ content: 'warm plan one' }, { content: 'warm plan two' }],
    });
    assert.equal(made.status, 201);
    const write = lastRuns.warmings('deltas/create')[0]!;
    assert.equal(write.read, false);
    assert.equal(write.rollback, true, 'run in a transaction rolled back');
    assert.equal(write.text, cypher('deltas/create'));
    // The shape of a write within the last second (SHAPE_EVERY_MS): this one's, or another's of the same types.
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    assert.match(String(write.params.project_id), uuid, 'the project it wrote to, kept');
    assert.match(String(write.params.delta_id), uuid, 'a new delta id');
    assert.notEqual(write.params.delta_id, made.body.delta_id);
    assert.ok(Array.isArray(write.params.nodes) && write.params.nodes.length > 0, 'a list with its items');
    assert.ok('standing' in write.params, 'every parameter of the real run, the carried check too');
    const kept = JSON.stringify(write.params);
    for (const value of [made.body.delta_id, made.body.memories[0].id, 'warm plan one'])
      assert.ok(!kept.includes(String(value)), `${String(value)} is not kept`);

    // Run as the warm-up runs it: it finds its project and creates every node (so its first execution is done),
    // and the rollback leaves the graph as it was.
    const graph = harness().service.deps.graph;
    const deltas = async () =>
      (await graph.read((tx) => tx.runText('MATCH (d:Delta) RETURN count(d) AS n', {})))[0]?.n as number;
    const before = await deltas();
    const session = graph.driver.session({ database: graph.database });
    try {
      const tx = session.beginTransaction();
      const result = await tx.run(write.text, write.params);
      await tx.rollback();
      assert.equal(result.records.length, 1, 'it found the project it wrote to');
      assert.equal(Number(result.records[0]!.get('staged')), write.params.nodes.length, 'it created every node');
    } finally {
      await session.close();
    }
    assert.equal(await deltas(), before, 'rolled back: no delta stays');

    const found = await t.post('/v1/memories/search', { query: 'warm plan', mode: 'lexical' });
    assert.equal(found.status, 200);
    const reads = mostUsedStatements(200)
      .map((name) => lastRuns.warmings(name)[0]!)
      .filter((w) => w.read);
    assert.ok(reads.length > 0, 'a read last run in a read is run again');
    for (const r of reads) assert.ok(!r.text.startsWith('EXPLAIN'), r.text.slice(0, 80));
  });
});
