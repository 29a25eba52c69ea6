import assert from 'node:assert/strict';
import { call, newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';

describe('API keys', () => {
  it('a request without an Authorization header is a 401', async () => {
    const reply = await call('GET', '/v1/project');
    assert.equal(reply.status, 401);
    assert.equal(reply.body.error.code, 'unauthorized');
    assert.match(reply.headers.get('www-authenticate') ?? '', /Bearer/);
  });

  it('a scheme other than Bearer is a 401', async () => {
    const tenant = await newTenant(0);
    const reply = await call('GET', '/v1/project', undefined, { headers: { Authorization: `Basic ${tenant.key}` } });
    assert.equal(reply.status, 401);
    assert.match(reply.body.error.message, /Bearer/);
  });

  it('an unknown key with the right prefix is a 401', async () => {
    const reply = await call('GET', '/v1/project', undefined, { key: `gks_AAAAAAAAAAAA_${'b'.repeat(43)}` });
    assert.equal(reply.status, 401);
    assert.equal(reply.body.error.details.reason, 'unknown');
  });

  it('a known lookup with a wrong secret is a 401', async () => {
    const tenant = await newTenant(0);
    const forged = tenant.key.slice(0, 17) + 'x'.repeat(tenant.key.length - 17);
    const reply = await call('GET', '/v1/project', undefined, { key: forged });
    assert.equal(reply.status, 401);
  });

  it('a revoked key fails at once', async () => {
    const tenant = await newTenant(0);
    assert.equal((await tenant.get('/v1/project')).status, 200);
    await harness().service.deps.graph.write((tx) => tx.run('auth/revoke_key', { id: tenant.keyId }));
    const reply = await tenant.get('/v1/project');
    assert.equal(reply.status, 401);
    assert.equal(reply.body.error.details.reason, 'revoked');
  });

  it('a project key makes project_id implicit', async () => {
    const tenant = await newTenant(0);
    const reply = await tenant.get('/v1/project');
    assert.equal(reply.status, 200);
    assert.equal(reply.body.project.id, tenant.projectId);
    assert.equal(reply.body.key.scoped_to, 'project');
  });

  it('a project key refuses a foreign project_id with 403', async () => {
    const tenant = await newTenant(0);
    const other = await newTenant(0);
    const reply = await tenant.get(`/v1/project?project_id=${other.projectId}`);
    assert.equal(reply.status, 403);
    assert.equal(reply.body.error.code, 'forbidden');
    assert.equal(reply.body.error.details.fields[0].field, '/query/project_id');
  });

  it('an organization key without project_id is a 400 naming the field', async () => {
    const tenant = await newTenant(0);
    const orgKey = await tenant.keyWith({ organization: true });
    const reply = await call('GET', '/v1/project', undefined, { key: orgKey });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.details.fields[0].field, '/query/project_id');
  });

  it('an organization key acts on its own projects and not on another organization', async () => {
    const tenant = await newTenant(0);
    const other = await newTenant(0);
    const orgKey = await tenant.keyWith({ organization: true });
    const own = await call('GET', `/v1/project?project_id=${tenant.projectId}`, undefined, { key: orgKey });
    assert.equal(own.status, 200);
    assert.equal(own.body.key.scoped_to, 'organization');
    const foreign = await call('GET', `/v1/project?project_id=${other.projectId}`, undefined, { key: orgKey });
    assert.equal(foreign.status, 404);
  });

  it('a key without the needed scope is a 403 that names the scope', async () => {
    const tenant = await newTenant(0);
    const narrow = await tenant.keyWith({ scopes: ['memories:read'] });
    const reply = await call('GET', '/v1/credits', undefined, { key: narrow });
    assert.equal(reply.status, 403);
    assert.equal(reply.body.error.details.missing_scope, 'credits:read');
  });

  it('a key created without scopes has all of them', async () => {
    const tenant = await newTenant(0);
    const reply = await tenant.get('/v1/project');
    assert.ok(reply.body.key.scopes.includes('graph:read'));
    assert.ok(reply.body.key.scopes.includes('deltas:apply'));
  });
});
