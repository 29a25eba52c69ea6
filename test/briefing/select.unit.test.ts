import assert from 'node:assert/strict';
import { memoryDay, selectEvidence } from '../../src/briefing/select.js';
import { memory } from './fixtures.js';

const ids = (list: { id: string }[]) => list.map((m) => m.id);

describe('briefing evidence selection', () => {
  it('ranks by score first, higher scores before lower', () => {
    const picked = selectEvidence([
      memory('a', 'decision', 'a', { score: 0.1 }),
      memory('b', 'observation', 'b', { score: 0.9 }),
      memory('c', 'fact', 'c', { score: 0.5 }),
    ]);
    assert.deepEqual(ids(picked), ['b', 'c', 'a']);
  });

  it('on equal scores, orders by kind priority: decision, lesson, preference, fact, signal, observation', () => {
    const kinds = ['observation', 'signal', 'fact', 'preference', 'lesson', 'decision'] as const;
    const picked = selectEvidence(kinds.map((kind) => memory(kind, kind, `content of ${kind}`, { score: 1 })));
    assert.deepEqual(ids(picked), ['decision', 'lesson', 'preference', 'fact', 'signal', 'observation']);
  });

  it('on equal score and kind, newer memories come first, then ids in ascending order', () => {
    const picked = selectEvidence([
      memory('b', 'fact', 'one', { created_at: '2026-01-01T00:00:00Z' }),
      memory('z', 'fact', 'two', { created_at: '2026-02-01T00:00:00Z' }),
      memory('c', 'fact', 'three', { created_at: '2026-01-01T00:00:00Z' }),
      memory('a', 'fact', 'four', { created_at: '2026-01-01T00:00:00Z' }),
    ]);
    assert.deepEqual(ids(picked), ['z', 'a', 'b', 'c']);
  });

  it('ranks unscored memories below scored ones', () => {
    const picked = selectEvidence([
      memory('unscored', 'decision', 'x'),
      memory('scored', 'observation', 'y', { score: -5 }),
    ]);
    assert.deepEqual(ids(picked), ['scored', 'unscored']);
  });

  it('selects the same evidence whatever order the candidates arrive in', () => {
    const list = [
      memory('a', 'fact', 'a', { score: 1 }),
      memory('b', 'lesson', 'b', { score: 1 }),
      memory('c', 'fact', 'c'),
      memory('d', 'signal', 'd', { score: 2 }),
    ];
    assert.deepEqual(ids(selectEvidence(list)), ids(selectEvidence([...list].reverse())));
  });

  it('keeps at most maxEvidence memories, 12 by default', () => {
    const many = Array.from({ length: 20 }, (_, i) =>
      memory(`m${String(i).padStart(2, '0')}`, 'fact', `fact number ${i}`, { score: i }),
    );
    assert.equal(selectEvidence(many).length, 12);
    assert.deepEqual(ids(selectEvidence(many, 3)), ['m19', 'm18', 'm17']);
    assert.deepEqual(selectEvidence(many, 0), []);
  });

  it('drops a memory whose content repeats a better-ranked one, ignoring case and whitespace', () => {
    const picked = selectEvidence([
      memory('low', 'fact', '  use   NEO4J\n5.26 ', { score: 0.2 }),
      memory('high', 'fact', 'Use Neo4j 5.26', { score: 0.9 }),
      memory('other', 'fact', 'Use Neo4j 5.27', { score: 0.1 }),
    ]);
    assert.deepEqual(ids(picked), ['high', 'other']);
  });

  it('counts only distinct memories towards maxEvidence', () => {
    const picked = selectEvidence(
      [
        memory('a', 'fact', 'same', { score: 3 }),
        memory('b', 'fact', 'SAME', { score: 2 }),
        memory('c', 'fact', 'different', { score: 1 }),
      ],
      2,
    );
    assert.deepEqual(ids(picked), ['a', 'c']);
  });

  it('refuses a maxEvidence that is negative or fractional', () => {
    assert.throws(() => selectEvidence([], -1), RangeError);
    assert.throws(() => selectEvidence([], 2.5), RangeError);
  });

  it('dates a memory by date_observed when known, else by created_at', () => {
    assert.equal(
      memoryDay(memory('a', 'fact', 'x', { created_at: '2026-03-01T10:00:00Z', date_observed: '2025-12-31' })),
      '2025-12-31',
    );
    assert.equal(memoryDay(memory('b', 'fact', 'x', { created_at: '2026-03-01T10:00:00Z' })), '2026-03-01');
  });
});
