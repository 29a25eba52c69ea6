import assert from 'node:assert/strict';
import { BuiltinBriefingWriter, LlmBriefingWriter, createBriefingWriter } from '../../src/briefing/index.js';

describe('briefing writer choice', () => {
  it('uses the built-in writer when no LLM endpoint is configured', () => {
    const writer = createBriefingWriter({ baseUrl: undefined, apiKey: 'ignored', model: 'gpt-4o-mini' });
    assert.ok(writer instanceof BuiltinBriefingWriter);
    assert.equal(writer.model, 'gks-briefing-builtin/1');
  });

  it('uses the LLM writer, named after the configured model, when an endpoint is configured', () => {
    const writer = createBriefingWriter({ baseUrl: 'http://127.0.0.1:1/v1', model: 'gpt-4o-mini' });
    assert.ok(writer instanceof LlmBriefingWriter);
    assert.equal(writer.model, 'gpt-4o-mini');
  });
});
