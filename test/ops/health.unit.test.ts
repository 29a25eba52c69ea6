import assert from 'node:assert/strict';
import { DependencyHealth } from '../../src/ops/health.js';

describe('dependency health', () => {
  it('is recovering only after an outage, while up, within the window after it came back', async () => {
    const health = new DependencyHealth('neo4j', 2);
    assert.equal(health.recovering(1_000), false, 'never down: not recovering');
    health.markDown('killed');
    assert.equal(health.recovering(1_000), false, 'down is not recovering');
    health.markUp();
    assert.equal(health.recovering(1_000), true);
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(health.recovering(10), false, 'the window has passed');
  });
});
