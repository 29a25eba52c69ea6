import assert from 'node:assert/strict';
import { walkStarts, type HeldTerms } from '../../src/memories/termVectors.js';

/** Held terms from [key, kind, vector], as the loader holds them. */
const held = (terms: [string, string, number[]][]): HeldTerms => ({
  keys: terms.map(([key]) => key),
  terms: terms.map(([key, kind, vector]) => ({ key, kind, vector })),
});

/** A unit vector at `degrees` from [1, 0]: its cosine to [1, 0] is cos(degrees). */
const at = (degrees: number): number[] => [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];

describe('where the walk by meaning starts, from held term vectors (pure)', () => {
  it('the nearest terms within the spread of the nearest, each weighing how far within, people and terms under the floor left out', () => {
    const terms = held([
      ['violin', 'object', at(10)], // cos 0.985
      ['ana', 'person', at(0)], // a person starts no walk by meaning, however near
      ['cello', 'object', at(20)], // cos 0.940
      ['recital', 'event', at(40)], // cos 0.766: under the nearest's spread
      ['weather', 'object', at(80)], // cos 0.174: under the floor
    ]);
    const starts = walkStarts(terms, [1, 0], 0.75, 20, 0.09);
    assert.deepEqual(
      starts.map((s) => s.key),
      ['violin', 'cello'],
    );
    assert.ok(Math.abs(starts[0]!.weight - 0.09) < 1e-12);
    assert.ok(Math.abs(starts[1]!.weight - (Math.cos(Math.PI / 9) - (Math.cos(Math.PI / 18) - 0.09))) < 1e-12);
  });

  it('at most `count` terms, equal cosines taken by key, and a vector of another length compared with nothing', () => {
    const terms = held([
      ['b', 'object', at(5)],
      ['a', 'object', at(5)],
      ['c', 'object', at(5)],
      ['d', 'object', [1, 0, 0]],
    ]);
    assert.deepEqual(
      walkStarts(terms, [1, 0], 0.75, 2, 0.09).map((s) => s.key),
      ['a', 'b'],
    );
  });

  it('no term near enough starts no walk', () => {
    assert.deepEqual(walkStarts(held([['weather', 'object', at(80)]]), [1, 0], 0.75, 20, 0.09), []);
    assert.deepEqual(walkStarts(held([]), [1, 0], 0.75, 20, 0.09), []);
  });
});
