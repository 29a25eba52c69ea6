import assert from 'node:assert/strict';
import { recallTerms, speakerOf } from '../../src/extractor/recallTerms.js';

const keys = (text: string, ends = {}) => recallTerms(text, ends).map((t) => `${t.key}/${t.role}`);

describe('recall terms (pure)', () => {
  it("reads a transcript line's speaker, the names it mentions and its things, a noun by its stem", () => {
    const terms = keys('Melanie: Wow, Caroline! I just signed up for a pottery class yesterday.');
    assert.deepEqual(terms.slice(0, 2), ['melanie/speaker', 'caroline/mention']);
    assert.ok(terms.includes('potteri/mention'));
    assert.ok(terms.includes('potteri class/mention'));
    assert.ok(!terms.some((t) => t.startsWith('wow')), 'an interjection names nothing');
  });

  it('a question names what its memories name: kids and kid, camping and camp', () => {
    assert.ok(keys("What do Melanie's kids like?").includes('kid/mention'));
    assert.ok(keys('Melanie: We took the kid camping.').includes('kid/mention'));
    assert.ok(keys('Where has Melanie been camping?').includes('camp/mention'));
  });

  it("gives the memory's subject and object their roles, and keeps multi-word names whole", () => {
    assert.deepEqual(
      keys('Ada Lovelace wrote the first program.', { subject: 'Ada Lovelace' })[0],
      'ada lovelace/subject',
    );
    assert.ok(keys('She worked with Charles Babbage in London.').includes('charles babbage/mention'));
  });

  it('a month or a weekday is no term: it says when (the time channel reads it), not who or what', () => {
    const terms = keys('What did Ingrid tell Nordhost in December 2025, and on which Monday last August?');
    assert.ok(terms.includes('ingrid/mention'));
    assert.ok(terms.includes('nordhost/mention'));
    for (const when of ['december', 'monday', 'august'])
      assert.ok(!terms.some((t) => t.startsWith(when)), `${when} is no term: ${terms}`);
  });

  it("a possessive the tagger leaves on a name is not part of it: Nate's is Nate", () => {
    const terms = keys("When did Joanna plan to go over to Nate's and share recipes?");
    assert.ok(terms.includes('nate/mention'), terms.join(', '));
    assert.ok(!terms.some((t) => t.includes("'s")), terms.join(', '));
    assert.ok(keys("Who performed at Melanie's daughter's birthday?").includes('melanie/mention'));
  });

  it("says who speaks a transcript line, by the speaker term's key; a line of no speaker has none", () => {
    assert.equal(speakerOf('Ana Lima: I started the cello.'), 'ana lima');
    assert.equal(speakerOf('Nate: Yep, Joanna.'), 'nate');
    assert.equal(speakerOf('The deploy broke: roll back.'), null);
    assert.equal(
      speakerOf('Note: the office closes at 7.'),
      recallTerms('Note: the office closes at 7.').find((t) => t.role === 'speaker')?.key ?? null,
    );
  });

  it('is deterministic', () => {
    const text = 'Joanna: I just watched "Little Women" with Nate at the Riverside cinema.';
    assert.deepEqual(recallTerms(text), recallTerms(text));
  });
});
