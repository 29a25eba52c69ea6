import assert from 'node:assert/strict';
import { entityKey, normalizeName } from '../../src/extractor/normalize.js';

describe('extraction name normalization', () => {
  it('spellings of one name that differ in case, spacing, punctuation or a leading "the" normalize alike', () => {
    for (const spelling of [
      'The  Analytical Engine.',
      '  analytical\tengine ',
      '"the Analytical Engine"',
      'ANALYTICAL ENGINE!',
    ]) {
      assert.equal(normalizeName(spelling), 'analytical engine');
    }
  });

  it('compatibility characters are folded (NFKC), so ligatures and full-width letters match plain ones', () => {
    assert.equal(normalizeName('ﬁnance Ｃｏｒｐ'), 'finance corp');
  });

  it('a "the" inside a name and punctuation inside a name are kept', () => {
    assert.equal(normalizeName('Bank of the West'), 'bank of the west');
    assert.equal(normalizeName('Hewlett-Packard'), 'hewlett-packard');
    assert.equal(normalizeName('C#.'), 'c#');
  });

  it('an entity key combines the type and the normalized name', () => {
    assert.equal(entityKey('Person', ' Ada  Lovelace. '), 'Person:ada lovelace');
    assert.notEqual(entityKey('Person', 'Jordan'), entityKey('Place', 'Jordan'));
  });
});
