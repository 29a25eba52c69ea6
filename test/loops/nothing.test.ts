import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';
import { createDocument, GENERAL_SHAPE_ID, waitForLoop } from './support.js';

describe('a graph_extraction loop over text with nothing to extract', function () {
  this.timeout(180_000);

  it('completes after one iteration with quality 1, stages nothing and is charged for that one iteration only', async () => {
    const t = await newTenant(100);
    const doc = await createDocument(
      t,
      'Nothing of note happened on that quiet afternoon. The rain stopped before dusk.',
    );
    const started = await t.post('/v1/loops', {
      kind: 'graph_extraction',
      goal: 'map the people',
      context: { source_ids: [doc] },
      schema: { shape_ids: [GENERAL_SHAPE_ID] },
      loop: { max_iterations: 3, quality_threshold: 0.8 },
    });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const status = await waitForLoop(t, started.body.loop_id);
    assert.equal(status.status, 'completed', JSON.stringify(status));
    assert.equal(status.iteration, 1);
    assert.equal(status.quality, 1);
    const checkpoints = (await t.get(`/v1/loops/${started.body.loop_id}/checkpoints`)).body.checkpoints;
    assert.equal(checkpoints.length, 1);
    assert.equal(checkpoints[0].entities_staged, 0);
    const credits = status.credits as { reserved: number; spent: number };
    assert.equal(credits.spent, credits.reserved / 3, JSON.stringify(credits));
  });
});
