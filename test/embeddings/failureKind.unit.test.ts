import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { failureKind } from '../../src/embeddings/client.js';
import { EmbeddingsUnavailableError } from '../../src/embeddings/model.js';

const answered = (status: number) => OpenAI.APIError.generate(status, { error: { message: 'x' } }, 'x', new Headers());

describe('Embedding failures: which texts are set aside and which stay queued', () => {
  it('only an answer about the input itself sets texts aside; an answer cut off by a killed engine keeps them queued', () => {
    for (const status of [400, 413, 422]) assert.equal(failureKind(answered(status)), 'failed', `HTTP ${status}`);
    assert.equal(failureKind(new EmbeddingsUnavailableError('384 expected', 'failed')), 'failed', 'wrong dimensions');
    // An engine killed while it wrote its answer: undici's error for a body cut off (issue 58 set such a batch aside).
    assert.equal(failureKind(new TypeError('terminated')), 'down');
    assert.equal(failureKind(new SyntaxError('Unexpected end of JSON input')), 'down');
    assert.equal(failureKind(new OpenAI.APIConnectionError({ message: 'Connection error.' })), 'down');
    // Wrong for every text (a key, a model name) or the server's own fault: an outage, not the texts'.
    for (const status of [401, 403, 404, 500, 502, 503]) assert.equal(failureKind(answered(status)), 'down');
    for (const status of [408, 429]) assert.equal(failureKind(answered(status)), 'timeout', `HTTP ${status}`);
    assert.equal(failureKind(new OpenAI.APIConnectionTimeoutError()), 'timeout');
  });
});
