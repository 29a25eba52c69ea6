import assert from 'node:assert/strict';
import { reciprocalRankFusion, RRF_K } from '../../src/search/fusion.js';

const hits = (plane: string, ...items: [string, number][]) => ({
  plane,
  hits: items.map(([id, score]) => ({ id, score, item: id })),
});

describe('reciprocal rank fusion', () => {
  it('scores each hit 1 / (k + rank) per ranking and sums across rankings', () => {
    const fused = reciprocalRankFusion(
      [hits('memory', ['a', 9], ['b', 3]), hits('entity', ['b', 1.2], ['c', 1.1])],
      10,
    );
    assert.deepEqual(
      fused.map((f) => f.id),
      ['b', 'a', 'c'],
    );
    assert.equal(fused[0]!.score, 1 / (RRF_K + 2) + 1 / (RRF_K + 1));
    assert.equal(fused[1]!.score, 1 / (RRF_K + 1));
    assert.equal(fused[0]!.plane, 'memory');
  });

  it("breaks equal ranks by the raw score relative to the plane's best, then by plane order", () => {
    const fused = reciprocalRankFusion(
      [hits('memory', ['m1', 4], ['m2', 1]), hits('document', ['d1', 2], ['d2', 1.9]), hits('entity', ['e1', 7])],
      10,
    );
    assert.deepEqual(
      fused.map((f) => f.id),
      ['m1', 'd1', 'e1', 'd2', 'm2'],
    );
  });

  it('keeps the top limit only', () => {
    assert.deepEqual(
      reciprocalRankFusion([hits('memory', ['a', 1], ['b', 1], ['c', 1])], 2).map((f) => f.id),
      ['a', 'b'],
    );
    assert.deepEqual(reciprocalRankFusion([], 5), []);
  });
});
