// The request types handlers read (bodyOf, queryOf) are derived from the schemas ajv validates with
// (src/http/input.ts). These tests hold the two premises of that derivation: what ajv does to a value
// (defaults filled, query strings coerced) is what the derived type promises, and the derived type is a
// real type (the @ts-expect-error lines fail `npm run typecheck` if it ever collapses to any or unknown).
import assert from 'node:assert/strict';
import { compile } from '../../src/http/validation.js';
import type { Input } from '../../src/http/input.js';
import { cursorQuery } from '../../src/http/schemas.js';
import { createMemoryBody } from '../../src/memories/schemas.js';

describe('request types derived from the route schemas', () => {
  it('a field with a default is present after validation, as the derived type says', () => {
    const body: Record<string, unknown> = { content: 'Ada prefers tea.' };
    compile(createMemoryBody, 'body')(body);
    const typed = body as Input<typeof createMemoryBody>;
    const apply: boolean = typed.apply;
    assert.equal(apply, true);
    // @ts-expect-error content is a string in the schema, so not a number in the type
    const wrong: number = typed.content;
    assert.equal(typeof wrong, 'string');
  });

  it("a query's integer arrives coerced with its default filled, as the derived type says", () => {
    const schema = cursorQuery({ status: { enum: ['open', 'closed'] } });
    const query: Record<string, unknown> = { status: 'open' };
    compile(schema, 'query')(query);
    const typed = query as Input<typeof schema>;
    const limit: number = typed.limit;
    assert.equal(limit, 20);
    const status: 'open' | 'closed' | undefined = typed.status;
    assert.equal(status, 'open');
    // @ts-expect-error status is one of the schema's enum values, not any string
    const anything: 'other' | undefined = typed.status;
    assert.equal(anything, 'open');
  });

  it('a query number written with whitespace, in hex or as an exponent for an integer is a 400 naming it', () => {
    const check = compile(cursorQuery({}), 'query');
    for (const limit of ['4\t', ' 4', '0x10', '1e1', '4.0', '']) {
      const query: Record<string, unknown> = { limit };
      assert.throws(
        () => check(query),
        (e: { status?: number; details?: { fields?: { field: string }[] } }) =>
          e.status === 400 && e.details?.fields?.[0]?.field === '/query/limit',
        JSON.stringify(limit),
      );
    }
    const written: Record<string, unknown> = { limit: '7' };
    check(written);
    assert.equal(written.limit, 7);
  });
});
