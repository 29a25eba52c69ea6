import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';

describe('JSON request bodies', () => {
  for (const raw of ['null', '42', '"text"', '[1, 2]', 'true']) {
    for (const path of ['/v1/memories/search', '/v1/memories', '/v1/submissions', '/v1/loops', '/v1/search']) {
      it(`a body of ${raw} on POST ${path} is a 400 invalid_request naming /body`, async () => {
        const t = await newTenant(0);
        const reply = await t.post(path, undefined, { raw });
        assert.equal(reply.status, 400, JSON.stringify(reply.body));
        assert.equal(reply.body.error.code, 'invalid_request');
        assert.deepEqual(reply.body.error.details.fields, [{ field: '/body', reason: 'must be a JSON object' }]);
      });
    }
  }

  it('a non-object body on a delta action is a 400 before the delta is looked up', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/deltas/00000000-0000-4000-8000-000000000000/reject', undefined, { raw: '[]' });
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.equal(reply.body.error.code, 'invalid_request');
  });

  it('a missing body where the schema requires one is a 400 naming the required fields', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/submissions');
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.equal(reply.body.error.code, 'invalid_request');
    assert.ok(reply.body.error.details.fields.some((f: { field: string }) => f.field === '/body/kind'));
  });

  it('a missing body on a route whose fields are all optional is read as {}', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/memories/search');
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
  });
});
