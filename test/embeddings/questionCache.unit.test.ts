import assert from 'node:assert/strict';
import { QuestionCache } from '../../src/embeddings/questionCache.js';

describe('The cache of question vectors', () => {
  it('keeps at most its capacity, dropping the least recently used question first', () => {
    const cache = new QuestionCache(2);
    cache.set('a', [1]);
    cache.set('b', [2]);
    assert.deepEqual(cache.get('a'), [1]); // a is now the most recently used
    cache.set('c', [3]);
    assert.equal(cache.get('b'), undefined, 'b was the least recently used and is gone');
    assert.deepEqual(cache.get('a'), [1]);
    assert.deepEqual(cache.get('c'), [3]);
    assert.equal(cache.size, 2);
    assert.deepEqual([cache.hits, cache.misses], [3, 1]);
  });

  it('questions differing in case or spacing are different questions (the engine may embed them differently)', () => {
    const cache = new QuestionCache(10);
    cache.set('Who pays wages?', [1]);
    assert.equal(cache.get('who pays wages?'), undefined);
    assert.equal(cache.get('Who pays wages? '), undefined);
  });

  it('a capacity of 0 keeps nothing', () => {
    const cache = new QuestionCache(0);
    cache.set('a', [1]);
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.size, 0);
  });
});
