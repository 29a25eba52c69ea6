import assert from 'node:assert/strict';
import { PLAN_SIZE_FLOOR, planSetFor, planSetStart } from '../../src/preflight/plans.js';

describe('preflight plan sets follow the graph size', () => {
  it('every graph smaller than the floor shares set 0', () => {
    assert.equal(planSetFor(0), 0);
    assert.equal(planSetFor(PLAN_SIZE_FLOOR - 1), 0);
  });

  it('above the floor each doubling is a set of its own, and a set starts where planSetStart says', () => {
    assert.equal(planSetFor(PLAN_SIZE_FLOOR), 1);
    assert.equal(planSetFor(2 * PLAN_SIZE_FLOOR - 1), 1);
    assert.equal(planSetFor(2 * PLAN_SIZE_FLOOR), 2);
    assert.equal(planSetFor(1_000_000), 7);
    for (const set of [0, 1, 2, 7, 20]) {
      assert.equal(planSetFor(planSetStart(set)), set);
      if (set > 0) assert.equal(planSetFor(planSetStart(set) - 1), set - 1);
    }
  });
});
