import assert from 'node:assert/strict';
import { htmlToText } from '../../../src/documents/ingest/html.js';

describe('htmlToText', () => {
  it('keeps the title and the prose, and drops scripts, styles and other non-prose', () => {
    const html = `<!DOCTYPE html><html><head><title> The  Title </title><meta charset="utf-8">
      <style>.x { display: none }</style><script>window.track()</script></head>
      <body><noscript>enable JS</noscript><template><p>template</p></template>
      <svg><title>icon</title><text>svg text</text></svg>
      <p>Visible text.</p><div hidden>hidden text</div></body></html>`;
    const { title, text } = htmlToText(html);
    assert.equal(title, 'The Title');
    assert.equal(text, 'Visible text.');
  });

  it('falls back to the first h1 when there is no title', () => {
    assert.equal(htmlToText('<h1>First <em>heading</em></h1><h1>Second</h1>').title, 'First heading');
    assert.equal(htmlToText('<p>no heading</p>').title, null);
    assert.equal(htmlToText('<title>  </title><h1>Fallback</h1>').title, 'Fallback');
  });

  it('decodes named and numeric entities', () => {
    const { text } = htmlToText(
      '<p>Fish &amp; chips &lt;3 &quot;caf&eacute;&quot; &#169; &#x2014; &hellip;&nbsp;end</p>',
    );
    assert.equal(text, 'Fish & chips <3 "café" © — … end');
  });

  it('turns blocks into lines and paragraphs and collapses other whitespace', () => {
    const html = `<article><h2>Heading</h2><p>First   paragraph
      spans lines.</p><p>Second<br>line two</p><ul><li>one</li><li>two</li></ul>
      <table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>
      <div>inline <b>bold</b> and <a href="#">link</a></div></article>`;
    assert.equal(
      htmlToText(html).text,
      'Heading\n\nFirst paragraph spans lines.\n\nSecond\nline two\n\none\ntwo\n\na b\nc d\n\ninline bold and link',
    );
  });

  it('treats two line breaks in a row as a paragraph break', () => {
    assert.equal(htmlToText('<div>first<br>\n<br>second<br>third</div>').text, 'first\n\nsecond\nthird');
  });

  it('keeps the line breaks of preformatted text', () => {
    assert.equal(
      htmlToText('<p>Run:</p><pre>npm ci\nnpm test</pre><p>Done.</p>').text,
      'Run:\n\nnpm ci\nnpm test\n\nDone.',
    );
  });

  it('copes with malformed markup: unclosed paragraphs, stray closing tags, comments', () => {
    const { text } = htmlToText('<p>one<p>two</span><!-- hidden comment --><p>three');
    assert.equal(text, 'one\n\ntwo\n\nthree');
  });

  it('gives empty text for an empty or script-only page', () => {
    assert.deepEqual(htmlToText(''), { title: null, text: '' });
    assert.equal(htmlToText('<script>only()</script>').text, '');
  });
});
