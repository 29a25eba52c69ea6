import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';
import { createDocument, startExtraction, waitForLoop } from './support.js';

describe('a graph_extraction loop over text with nothing to extract', function () {
  this.timeout(180_000);

  it('completes after one iteration with quality 1, stages nothing and is charged for that one iteration only', async () => {
    const t = await newTenant(100);
    const doc = await createDocument(
      t,
      'Nothing of note happened on that quiet afternoon. The rain stopped before dusk.',
    );
    const started = {
      body: await startExtraction(t, doc, {
        goal: 'map the people',
        loop: { max_iterations: 3, quality_threshold: 0.8 },
      }),
    };
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
