import assert from 'node:assert/strict';
import { wordsThen } from '../../src/search/known.js';
import type { RankedHit } from '../../src/search/hybrid.js';

const hit = (id: string, text: string): RankedHit<string> => ({ id, item: id, text, score: 0 });

describe('known_at: the word ranking of what is put back (pure)', () => {
  it('puts back what the index would have found, by the share of content words, stems compared as the index does', () => {
    const live = [hit('live', 'Aquaculture clients renewed their leases')];
    const back = [
      hit('farm', 'Two salmon farms cancelled their leases'),
      hit('stop', 'What is it with the weather'),
      hit('none', 'The board meets in Oslo'),
    ];
    const ranked = wordsThen('Did we lose fish farming customers?', live, back).map((h) => h.id);
    // "farms" and "farming" share their stem, as in the index; the live hit holds none of the content words.
    assert.deepEqual(ranked, ['farm', 'live']);
    assert.deepEqual(
      wordsThen('what is it', [], back).map((h) => h.id),
      [],
      'function words alone put nothing back',
    );
  });
});
