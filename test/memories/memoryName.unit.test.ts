// A memory's name is the first sentence of its content, cut to eight words and 80 characters.
import assert from 'node:assert/strict';
import { memoryName } from '../../src/memories/views.js';

describe('memory names', () => {
  it('take the first sentence: a stop followed by white space ends it, a stop inside a word does not', () => {
    assert.equal(memoryName('  We ship weekly. Reviews are on Friday.'), 'We ship weekly');
    assert.equal(memoryName('Is it done?\nYes.'), 'Is it done');
    assert.equal(memoryName('Version 2.5 ships today! Tell the team.'), 'Version 2.5 ships today');
    assert.equal(memoryName('No stop at all'), 'No stop at all');
    assert.equal(memoryName('Ends with stops...'), 'Ends with stops');
  });

  it('keep at most eight words with single spaces, and at most 80 characters', () => {
    assert.equal(
      memoryName('one  two\tthree four five six seven eight nine ten.'),
      'one two three four five six seven eight',
    );
    const long = `${'x'.repeat(100)} tail.`;
    assert.equal(memoryName(long), `${'x'.repeat(79)}…`);
  });

  it('of a long content, are the first sentence only, whatever follows', () => {
    const content = ['The first one counts.', ...Array.from({ length: 2000 }, (_, i) => `Sentence ${i} follows.`)].join(
      ' ',
    );
    assert.equal(memoryName(content), 'The first one counts');
  });
});
