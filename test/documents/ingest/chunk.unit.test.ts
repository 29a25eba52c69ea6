import assert from 'node:assert/strict';
import { chunkText, type Chunk } from '../../../src/documents/ingest/chunk.js';

const SENTENCES = Array.from({ length: 60 }, (_, i) => `Sentence number ${i + 1} talks about topic ${i % 7}.`);
const PARAGRAPHS = Array.from({ length: 12 }, (_, p) => SENTENCES.slice(p * 5, p * 5 + 5).join(' ')).join('\n\n');

/** Every non-space character of the text lies inside at least one chunk. */
function assertCovers(text: string, chunks: Chunk[]): void {
  const covered = new Array<boolean>(text.length).fill(false);
  for (const chunk of chunks) for (let i = chunk.start; i < chunk.end; i += 1) covered[i] = true;
  for (let i = 0; i < text.length; i += 1) {
    if (/\S/.test(text[i] ?? '')) assert.ok(covered[i], `character ${i} (${JSON.stringify(text[i])}) is in no chunk`);
  }
}

describe('chunkText', () => {
  it('gives no chunks for empty or blank text', () => {
    assert.deepEqual(chunkText(''), []);
    assert.deepEqual(chunkText(' \n\n\t '), []);
  });

  it('keeps a short text whole, trimmed, with its true offsets', () => {
    assert.deepEqual(chunkText('  Just one line.  \n'), [{ index: 0, text: 'Just one line.', start: 2, end: 16 }]);
  });

  it('gives chunks in order, each within the size and each the exact slice of the text it claims', () => {
    const chunks = chunkText(PARAGRAPHS, { size: 300, overlap: 60 });
    assert.ok(chunks.length > 5);
    chunks.forEach((chunk, i) => {
      assert.equal(chunk.index, i);
      assert.ok(chunk.text.length <= 300, `chunk ${i} has ${chunk.text.length} characters`);
      assert.equal(chunk.text, PARAGRAPHS.slice(chunk.start, chunk.end));
      if (i > 0) assert.ok(chunk.start > (chunks[i - 1]?.start ?? -1), 'starts move forward');
    });
  });

  it('covers the whole text', () => {
    assertCovers(PARAGRAPHS, chunkText(PARAGRAPHS, { size: 300, overlap: 60 }));
    const noSpaces = 'x'.repeat(2500);
    assertCovers(noSpaces, chunkText(noSpaces, { size: 1000, overlap: 100 }));
  });

  it('repeats the end of each chunk at the start of the next, up to the overlap', () => {
    const chunks = chunkText(PARAGRAPHS, { size: 300, overlap: 60 });
    for (let i = 1; i < chunks.length; i += 1) {
      const previous = chunks[i - 1];
      const current = chunks[i];
      assert.ok(previous !== undefined && current !== undefined);
      const shared = previous.end - current.start;
      assert.ok(shared > 0 && shared <= 60, `chunks ${i - 1} and ${i} share ${shared} characters`);
      assert.ok(previous.text.endsWith(PARAGRAPHS.slice(current.start, previous.end)));
    }
  });

  it('starts the repeated context at a sentence when one begins within the overlap', () => {
    for (const chunk of chunkText(PARAGRAPHS, { size: 300, overlap: 60 })) assert.match(chunk.text, /^Sentence number/);
  });

  it('prefers to cut at a paragraph break', () => {
    const text = `${'Alpha beta gamma. '.repeat(10).trim()}\n\n${'Delta epsilon zeta. '.repeat(10).trim()}`;
    const [first] = chunkText(text, { size: 250, overlap: 20 });
    assert.equal(first?.text, 'Alpha beta gamma. '.repeat(10).trim());
  });

  it('cuts at a sentence end when no paragraph break is near', () => {
    const text = SENTENCES.join(' ');
    for (const chunk of chunkText(text, { size: 200, overlap: 40 }).slice(0, -1)) {
      assert.match(chunk.text, /\.$/, `chunk ends mid-sentence: ${JSON.stringify(chunk.text.slice(-20))}`);
    }
  });

  it('cuts between words when a sentence is longer than the chunk, and starts the next chunk on a word', () => {
    const text = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const chunks = chunkText(text, { size: 100, overlap: 20 });
    for (const chunk of chunks) {
      assert.match(chunk.text, /^word\d+( word\d+)*$/, `chunk splits a word: ${chunk.text}`);
    }
  });

  it('is deterministic', () => {
    assert.deepEqual(
      chunkText(PARAGRAPHS, { size: 250, overlap: 50 }),
      chunkText(PARAGRAPHS, { size: 250, overlap: 50 }),
    );
  });

  it('uses 1200 characters with 200 of overlap by default', () => {
    const chunks = chunkText(PARAGRAPHS.repeat(3));
    assert.ok(chunks.every((c) => c.text.length <= 1200));
    assert.ok((chunks[0]?.text.length ?? 0) > 600);
    assert.ok((chunks[0]?.end ?? 0) - (chunks[1]?.start ?? 0) <= 200);
  });

  it('refuses an overlap that is not smaller than the size', () => {
    assert.throws(() => chunkText('text', { size: 100, overlap: 100 }), RangeError);
    assert.throws(() => chunkText('text', { size: 0 }), RangeError);
  });
});
