import assert from 'node:assert/strict';
import { stripInlineMarkdown, stripMarkdown } from '../../src/briefing/plain.js';

describe('markdown to plain text', () => {
  it('removes headings, list markers, quotes and rules but keeps the words', () => {
    const markdown =
      '# Title\n\nIntro paragraph.\n\n## Decisions\n\n- first item\n* second item\n1. third item\n> quoted\n\n---\n\nEnd';
    assert.equal(
      stripMarkdown(markdown),
      'Title\n\nIntro paragraph.\n\nDecisions\n\nfirst item\nsecond item\nthird item\nquoted\n\nEnd',
    );
  });

  it('removes emphasis, links, images and inline code marks', () => {
    assert.equal(
      stripInlineMarkdown('**bold** and *it* and __b__ and _i_ and ~~gone~~'),
      'bold and it and b and i and gone',
    );
    assert.equal(
      stripInlineMarkdown('see [the docs](https://x.test/a) and ![a chart](c.png) at <https://y.test>'),
      'see the docs and a chart at https://y.test',
    );
    assert.equal(stripInlineMarkdown('run `npm *test*` now'), 'run npm *test* now');
  });

  it('keeps snake_case names, escaped characters and lone asterisks', () => {
    assert.equal(
      stripInlineMarkdown('set max_evidence and \\*literal\\* and 2 * 3'),
      'set max_evidence and *literal* and 2 * 3',
    );
  });

  it('keeps a hash that ends an ordinary line, and drops setext underlines', () => {
    assert.equal(
      stripMarkdown('Title\n=====\nWe fixed bug #\n### Closed heading ###'),
      'Title\nWe fixed bug #\nClosed heading',
    );
  });

  it('keeps code block contents and drops their fences', () => {
    assert.equal(
      stripMarkdown('Before\n\n```sh\n# not a heading\nnpm test\n```\n\nAfter'),
      'Before\n\n# not a heading\nnpm test\n\nAfter',
    );
  });

  it('turns table rows into plain cells and drops the separator row', () => {
    assert.equal(stripMarkdown('| kind | count |\n| --- | ---: |\n| fact | 2 |'), 'kind; count\nfact; 2');
  });
});
