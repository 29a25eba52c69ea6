import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';

describe('Idempotency-Key', () => {
  it('the same key and body replay the first response without a second write', async () => {
    const t = await newTenant(0);
    const headers = { 'Idempotency-Key': 'create-once-1' };
    const first = await t.post('/v1/memories', { content: 'Only once.' }, { headers });
    const second = await t.post('/v1/memories', { content: 'Only once.' }, { headers });
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.equal(second.body.id, first.body.id);
    assert.equal(second.body.delta_id, first.body.delta_id);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    const deltas = await t.get('/v1/deltas');
    assert.equal(deltas.body.deltas.length, 1);
  });

  it('the same key with a different body is a 409', async () => {
    const t = await newTenant(0);
    const headers = { 'Idempotency-Key': 'create-once-2' };
    await t.post('/v1/memories', { content: 'First body.' }, { headers });
    const reply = await t.post('/v1/memories', { content: 'Second body.' }, { headers });
    assert.equal(reply.status, 409);
    assert.equal(reply.body.error.code, 'idempotency_conflict');
  });

  it('concurrent requests with one key write once', async () => {
    const t = await newTenant(0);
    const headers = { 'Idempotency-Key': 'race-key' };
    const replies = await Promise.all([1, 2, 3].map(() => t.post('/v1/memories', { content: 'Racing.' }, { headers })));
    const created = replies.filter((r) => r.status === 201);
    assert.ok(created.length >= 1);
    assert.ok(replies.every((r) => r.status === 201 || r.body.error?.code === 'idempotency_conflict'));
    assert.equal(new Set(created.map((r) => r.body.id)).size, 1);
    assert.equal((await t.get('/v1/deltas')).body.deltas.length, 1);
  });

  it('keys are per API key: another key may reuse the same value', async () => {
    const a = await newTenant(0);
    const b = await newTenant(0);
    const headers = { 'Idempotency-Key': 'shared-value' };
    const ra = await a.post('/v1/memories', { content: 'A.' }, { headers });
    const rb = await b.post('/v1/memories', { content: 'A.' }, { headers });
    assert.notEqual(ra.body.id, rb.body.id);
  });
});
