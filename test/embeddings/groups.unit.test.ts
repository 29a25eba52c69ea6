import assert from 'node:assert/strict';
import { groupsOf, REQUEST_CHARS } from '../../src/embeddings/worker.js';

describe('Embedding requests stay small', () => {
  it('texts are sent in groups of at most REQUEST_CHARS characters, in order; a longer text goes alone', () => {
    const t = (n: number, id: string) => ({ id, text: 'x'.repeat(n) });
    const groups = groupsOf([t(4000, 'a'), t(1500, 'b'), t(900, 'c'), t(9000, 'd'), t(10, 'e')], 6_000);
    assert.deepEqual(
      groups.map((g) => g.map((i) => i.id)),
      [['a', 'b'], ['c'], ['d'], ['e']],
    );
    assert.deepEqual(groupsOf([], REQUEST_CHARS), []);
    // A typical memory is a sentence or two (about 90 characters): sixteen still go in one request.
    const short = Array.from({ length: 16 }, (_, i) => t(90, String(i)));
    assert.equal(groupsOf(short, REQUEST_CHARS).length, 1, 'sixteen memories still go in one request');
    assert.ok(REQUEST_CHARS <= 2_000, 'small requests keep a question from waiting long behind the drain');
  });
});
