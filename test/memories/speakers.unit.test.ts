import assert from 'node:assert/strict';
import { askedAsIs, askedWithout, othersLast, type SaidLine } from '../../src/memories/speakers.js';

const nate = { key: 'nate', name: 'Nate' };
const joanna = { key: 'joanna', name: 'Joanna' };

describe('the question without its speakers (pure)', () => {
  it("meaning reads each speaker's name as someone, the words leave it out", () => {
    const asked = askedWithout('What animal do both Nate and Joanna like?', [nate, joanna]);
    assert.equal(asked.meaning, 'What animal do both someone and someone like?');
    assert.equal(asked.words, 'What animal do both and like?');
    assert.deepEqual(asked.speakers, ['nate', 'joanna']);
  });

  it("a possessive stays a possessive, and a name inside another word is not the speaker's", () => {
    const asked = askedWithout("What did Nate's sister tell Natalie about NATE?", [nate]);
    assert.equal(asked.meaning, "What did someone's sister tell Natalie about someone?");
    assert.equal(asked.words, 'What did sister tell Natalie about ?');
  });

  it('a question of nothing but its speakers keeps them for the words, which would have nothing else to read', () => {
    const asked = askedWithout('Who is Joanna?', [joanna]);
    assert.equal(asked.meaning, 'Who is someone?');
    assert.equal(asked.words, 'Who is Joanna?');
  });

  it('no speaker named: the question as asked, for every reader', () => {
    assert.deepEqual(askedWithout('What does LeBron James do?', []), askedAsIs('What does LeBron James do?'));
  });
});

describe("other people's conversations last (pure)", () => {
  const line = (speaker: string | null, episode: string | null): SaidLine => ({ speaker, episode });
  const said = new Map<string, SaidLine>([
    ['mel-violin', line('melanie', 'chat-mel')],
    ['ana-cello', line('ana', 'chat-ana')],
    ['ben-in-ana', line('ben', 'chat-ana')],
    ['note', line(null, null)],
    ['ana-uke', line('ana', 'chat-ana-2')],
    ['loose', line('carl', null)],
  ]);
  const ranked = ['mel-violin', 'ben-in-ana', 'note', 'loose', 'ana-cello', 'ana-uke'].map((id) => ({ id }));
  const ids = (rs: { id: string }[]) => rs.map((r) => r.id);

  it('a line someone else said where the named speaker is not found ranks after the rest, each side in its order', () => {
    assert.deepEqual(ids(othersLast(ranked, said, ['ana'], () => false)), [
      'ben-in-ana',
      'note',
      'ana-cello',
      'ana-uke',
      'mel-violin',
      'loose',
    ]);
  });

  it('a pinned result (an identifier or rare word of the question) keeps its place', () => {
    const pinned = (r: { id: string }) => r.id === 'mel-violin';
    assert.deepEqual(ids(othersLast(ranked, said, ['ana'], pinned)).slice(0, 2), ['mel-violin', 'ben-in-ana']);
  });

  it('no speaker named: the ranking as it was', () => {
    assert.deepEqual(ids(othersLast(ranked, said, [], () => false)), ids(ranked));
  });
});
