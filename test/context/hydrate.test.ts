import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';
import { waitForLoop } from '../loops/support.js';
import { remember, seedAdaGraph } from './fixtures.js';

describe('hydrate loops through a slice', function () {
  this.timeout(300_000); // the shared 2-core machine runs many engines at once

  it('gathers what the slice compiles for the goal, and stages RELEVANT_TO links naming the slice', async () => {
    const t = await newTenant(100);
    const ids = await seedAdaGraph(t);
    const { ids: mem } = await remember(t, [
      { content: 'The engine notes need a careful review.', kind: 'lesson', subject: { id: ids.ada } },
      { content: 'Engine review happens on Fridays.', kind: 'decision' },
    ]);
    const slice = await t.post('/v1/slices', {
      name: 'engine-memory',
      planes: ['memory'],
      budget: { max_tokens: 512 },
    });
    assert.equal(slice.status, 201, JSON.stringify(slice.body));
    const plan = await t.post('/v1/loops', {
      kind: 'hydrate',
      goal: 'engine review',
      context: { slice_id: slice.body.id },
      dry_run: true,
    });
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    assert.deepEqual(plan.body.plan.slice, { id: slice.body.id, name: 'engine-memory', version: 1 });
    const started = await t.post('/v1/loops', {
      kind: 'hydrate',
      goal: 'engine review',
      context: { slice_id: slice.body.id },
      loop: { max_iterations: 1 },
    });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.equal((await waitForLoop(t, started.body.loop_id, 240_000)).status, 'completed');
    const delta = (await t.get(`/v1/deltas/${started.body.delta_id}`)).body.delta;
    const links = delta.changes.filter((c: { type: string | null }) => c.type === 'RELEVANT_TO');
    // Only the memory plane of the slice: both memories, and no entity or chunk.
    assert.deepEqual(new Set(links.map((l: { from: string }) => l.from)), new Set(mem));
    assert.ok(
      links.every((l: { properties: { reason: string } }) => /slice engine-memory v1/.test(l.properties.reason)),
      JSON.stringify(links),
    );
  });

  it('refuses an unknown slice (404) and a slice for an extraction loop (400)', async () => {
    const t = await newTenant(100);
    assert.equal(
      (await t.post('/v1/loops', { kind: 'hydrate', goal: 'g', context: { slice_id: 'nope' }, dry_run: true })).status,
      404,
    );
    const reply = await t.post('/v1/loops', {
      kind: 'graph_extraction',
      goal: 'g',
      context: { slice_id: 'nope', source_ids: ['x'] },
      schema: { shape_ids: ['y'] },
    });
    assert.equal(reply.status, 400);
    assert.ok(reply.body.error.details.fields.some((f: { field: string }) => f.field === '/body/context/slice_id'));
  });
});
