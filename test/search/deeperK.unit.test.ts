// How deep the shared vector index is asked again when too few of a project's near hits came back (src/search/meaning.ts).
import assert from 'node:assert/strict';
import { deeperK } from '../../src/search/meaning.js';

describe('the second ask of the vector index (pure)', () => {
  it('asks as deep as the share of the project among the first answer says is needed, and half as deep again', () => {
    // 120 neighbours held 40 of the 60 wanted: a third as many again would do; half as deep again is 270.
    assert.equal(deeperK(120, 40, 60), 270);
  });

  it('asks at least twice as deep, so each ask reaches further than the last', () => {
    assert.equal(deeperK(120, 59, 60), 240);
  });

  it('asks at most eight times as deep when none or very few of the answer were the project', () => {
    assert.equal(deeperK(120, 0, 60), 960);
    assert.equal(deeperK(120, 5, 60), 960);
  });

  it('never asks past the index read limit of 4,000', () => {
    assert.equal(deeperK(960, 10, 60), 4000);
  });
});
