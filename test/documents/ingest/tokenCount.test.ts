// Token counts come from a real BPE tokenizer (gpt-tokenizer, o200k_base): the document's token count
// and, after a loop reads it, the document's extractedTokenCount.
import assert from 'node:assert/strict';
import { countTokens, TOKEN_ENCODING } from '../../../src/documents/ingest/index.js';
import { newTenant } from '../../support/api.js';
import { createDocument, STORY, waitForLoop, startExtraction } from '../../loops/support.js';

describe('token counts (gpt-tokenizer)', () => {
  it('counts BPE tokens of the o200k_base encoding, not characters', () => {
    assert.equal(TOKEN_ENCODING, 'o200k_base');
    assert.equal(countTokens(''), 0);
    assert.equal(countTokens('hello world'), 2);
    // 400 repeated letters are a handful of long merges, far from the old 400 / 4 estimate.
    assert.ok(countTokens('a'.repeat(400)) < 100);
    const tokens = countTokens(STORY);
    assert.ok(
      tokens > STORY.length / 8 && tokens < STORY.length / 3,
      `${tokens} tokens for ${STORY.length} characters`,
    );
  });

  it('a loop records the document token count of the tokenizer as extractedTokenCount', async function () {
    this.timeout(300_000); // a loop on a loaded 2-core machine
    const t = await newTenant(1000);
    const doc = await createDocument(t, STORY);
    const started = { body: await startExtraction(t, doc, { goal: 'who works where', loop: { max_iterations: 1 } }) };
    assert.equal((await waitForLoop(t, started.body.loop_id)).status, 'completed');
    const read = await t.get(`/v1/documents/${doc}`);
    assert.equal(read.body.source.extractedTokenCount, countTokens(STORY), JSON.stringify(read.body));
  });
});
