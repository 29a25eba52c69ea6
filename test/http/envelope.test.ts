import assert from 'node:assert/strict';
import { call, newTenant } from '../support/api.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('HTTP envelope', () => {
  it('every response carries a request id in the header and the JSON body', async () => {
    const reply = await call('GET', '/healthz');
    assert.equal(reply.status, 200);
    assert.match(reply.headers.get('x-request-id') ?? '', UUID);
    assert.equal(reply.body.request_id, reply.headers.get('x-request-id'));
  });

  it('a well-formed incoming X-Request-Id is kept, a malformed one replaced', async () => {
    const kept = await call('GET', '/healthz', undefined, { headers: { 'X-Request-Id': 'client-req.42' } });
    assert.equal(kept.headers.get('x-request-id'), 'client-req.42');
    assert.equal(kept.body.request_id, 'client-req.42');
    const replaced = await call('GET', '/healthz', undefined, { headers: { 'X-Request-Id': 'bad id with spaces' } });
    assert.match(replaced.body.request_id, UUID);
  });

  it('unknown routes answer a JSON 404 in the error envelope', async () => {
    const reply = await call('GET', '/v1/no-such-thing');
    assert.equal(reply.status, 404);
    assert.deepEqual(Object.keys(reply.body).sort(), ['error', 'request_id']);
    assert.equal(reply.body.error.code, 'not_found');
    assert.equal(typeof reply.body.error.message, 'string');
    assert.deepEqual(reply.body.error.details, {});
  });

  it('a wrong method answers 405 with the Allow header', async () => {
    const reply = await call('DELETE', '/healthz');
    assert.equal(reply.status, 405);
    assert.equal(reply.body.error.code, 'method_not_allowed');
    assert.match(reply.headers.get('allow') ?? '', /GET/);
  });

  it('malformed JSON is a 400 naming the body', async () => {
    const tenant = await newTenant(0);
    const reply = await call('POST', '/v1/memories', undefined, { key: tenant.key, raw: '{"oops":' });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.code, 'invalid_request');
    assert.equal(reply.body.error.details.fields[0].field, '/body');
    // A body is read only by a route, after authentication: a method the path lacks is a 405 unread.
    const wrongMethod = await call('POST', '/v1/credits', undefined, { key: tenant.key, raw: '{"oops":' });
    assert.equal(wrongMethod.status, 405);
  });

  it('a body over the size limit is a 413', async () => {
    const big = JSON.stringify({ content: 'x'.repeat(1_100_000) });
    const reply = await call('POST', '/v1/credits', undefined, { raw: big });
    assert.equal(reply.status, 413);
    assert.equal(reply.body.error.code, 'payload_too_large');
  });

  it('readyz reports Neo4j and Temporal reachable without auth', async () => {
    const reply = await call('GET', '/readyz');
    assert.equal(reply.status, 200);
    assert.deepEqual({ neo4j: reply.body.neo4j, temporal: reply.body.temporal }, { neo4j: true, temporal: true });
  });
});
