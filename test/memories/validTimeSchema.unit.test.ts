import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { addFormats } from '../../src/shared/ajvFormats.js';
import { createMemoryBody } from '../../src/memories/schemas.js';

describe('the published memory create schema states the valid-time rule (clients and fuzzers read it there)', () => {
  // A validator of the schema as published: nothing of the service's own validation code.
  const validate = addFormats(new Ajv({ strict: false, allErrors: true })).compile(createMemoryBody);
  const at = '2020-01-01T00:00:00Z';

  it('valid_from or valid_to without kind, or with a kind that has no valid time, is refused by the schema', () => {
    assert.equal(validate({ content: 'Seen at one.', valid_to: at }), false);
    assert.equal(validate({ content: 'Seen at one.', kind: 'observation', valid_from: at }), false);
    assert.equal(validate({ memories: [{ content: 'Seen at two.', kind: 'lesson', valid_to: at }] }), false);
  });

  it('a fact, decision or preference with valid time, and any memory without it, passes the schema', () => {
    for (const kind of ['fact', 'decision', 'preference'])
      assert.equal(validate({ content: 'Cy speaks Welsh.', kind, valid_from: at, valid_to: at }), true, kind);
    assert.equal(validate({ content: 'Seen at one.' }), true);
    // No kind with a predicate is a fact.
    assert.equal(validate({ content: 'Cy speaks Welsh.', predicate: 'speaks', valid_from: at }), true);
    assert.equal(validate({ memories: [{ content: 'Cy speaks Welsh.', predicate: 'speaks', valid_to: at }] }), true);
    assert.equal(
      validate({ memories: [{ content: 'Seen at two.' }, { content: 'Held.', kind: 'fact', valid_to: at }] }),
      true,
    );
  });
});
