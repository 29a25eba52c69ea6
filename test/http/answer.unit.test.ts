// The answers handlers give are typed from the response schemas the OpenAPI document publishes
// (src/http/answer.ts, route() in src/http/route.ts). These tests hold that the derived types are real: each
// expect-error line below fails `npm run typecheck` if a derived type ever collapses to any or unknown, or
// stops refusing an undeclared field, a missing required one or a null in a string field. The values the
// types accept are checked against the published schemas with ajv, as the response audit checks answers.
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { addFormats } from '../../src/shared/ajvFormats.js';
import type { Answer, Known } from '../../src/http/answer.js';
import { route } from '../../src/http/route.js';
import { governedWriteSchema } from '../../src/http/schemas.js';
import { memoryNodeSchema } from '../../src/memories/schemas.js';
import { matchSchema } from '../../src/search/schemas.js';
import type { JsonSchema } from '../../src/http/route.js';

// With the formats the response audit checks (date-time, date): without them ajv ignores each, and says so.
const ajv = addFormats(new Ajv({ strict: false }));

describe('response types derived from the route schemas', () => {
  it('a memory node the derived type accepts is one the published schema accepts', () => {
    const node: Answer<typeof memoryNodeSchema> = {
      id: 'm1',
      type: 'memory',
      name: 'Ada prefers tea',
      properties: { kind: 'preference', content: 'Ada prefers tea.', subject: null },
      plane: 'memory',
    };
    assert.equal(ajv.validate(memoryNodeSchema, node), true);
    // @ts-expect-error name is a string in the schema: null is refused
    const nullName: Answer<typeof memoryNodeSchema> = { id: 'm1', name: null };
    assert.equal(ajv.validate(memoryNodeSchema, nullName), false);
    // @ts-expect-error score is not a property the memory node schema declares
    const extra: Answer<typeof memoryNodeSchema> = { id: 'm1', score: 1 };
    assert.equal(Object.keys(extra).includes('score'), true);
    // @ts-expect-error kind is one of the schema's enum values, not any string
    const kind: Answer<typeof memoryNodeSchema> = { properties: { kind: 'opinion' } };
    assert.equal(ajv.validate(memoryNodeSchema, kind), false);
  });

  it('a governed-write answer without a required field is refused, as the published schema refuses it', () => {
    const schema = governedWriteSchema({ shape_id: { type: 'string' } });
    const answer: Answer<typeof schema> = {
      id: 'n1',
      status: 'applied',
      project_id: 'p1',
      delta_id: 'd1',
      applied: true,
      shape_id: 's1',
    };
    // request_id is added by the app, not by the handler: the derived answer leaves it out.
    assert.equal(ajv.validate(schema, { ...answer, request_id: 'r1' }), true);
    // @ts-expect-error applied is required by the schema
    const missing: Answer<typeof schema> = { id: 'n1', status: 'applied', project_id: 'p1', delta_id: 'd1' };
    assert.equal(ajv.validate(schema, { ...missing, request_id: 'r1' }), false);
    // @ts-expect-error a match's score is required beside its ranks
    const match: Answer<typeof matchSchema> = {
      lexical_rank: 1,
      semantic_rank: null,
      similarity: null,
      graph_rank: null,
      exact: [],
    };
    assert.equal(ajv.validate(matchSchema, match), false);
  });

  it('a route whose schema cannot be read refuses every answer instead of accepting any', async () => {
    const unreadable: Known<Answer<JsonSchema>> = 'the response type collapsed to unknown';
    assert.equal(typeof unreadable, 'string');
    const okSchema = { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } } as const;
    const spec = {
      method: 'get',
      path: '/v1/example',
      operationId: 'example',
      tag: 'Example',
      summary: 'An example',
      status: 200,
      errors: [],
      response: okSchema,
    } as const;
    const declared = route<typeof okSchema>({ ...spec, handler: async () => ({ body: { ok: true } }) });
    assert.deepEqual((await declared.handler({} as never)).body, { ok: true });
    // @ts-expect-error ok is a boolean in the schema, so 'yes' is refused
    route<typeof okSchema>({ ...spec, handler: async () => ({ body: { ok: 'yes' } }) });
    // @ts-expect-error without the schema's type the answer type is never: no answer typechecks
    route({ ...spec, handler: async () => ({ body: { ok: true } }) });
  });
});
