// apply_if_safe makes connections:sync apply deltas, so only a key that may apply deltas can set it.
import assert from 'node:assert/strict';
import { call, newTenant, type Tenant } from '../support/api.js';
import { startStandIn, github, type StandIn } from './standins.js';
import { createConnection, githubConnection } from './support.js';

describe('connection apply_policy needs the scope that names its effect', function () {
  this.timeout(120_000);
  let gh: StandIn;
  let t: Tenant;
  before(async () => {
    gh = await startStandIn(github);
    t = await newTenant();
  });
  after(async () => {
    await gh.close();
  });

  it('connections:write alone cannot create or switch a connection to apply_if_safe (403 naming deltas:apply)', async () => {
    const writer = await t.keyWith({ scopes: ['connections:write', 'connections:read'] });
    const created = await call('POST', '/v1/connections', githubConnection(gh, { apply_policy: 'apply_if_safe' }), {
      key: writer,
    });
    assert.equal(created.status, 403, JSON.stringify(created.body));
    assert.equal(created.body.error.code, 'forbidden');
    assert.match(JSON.stringify(created.body), /deltas:apply/);

    const id = await createConnection(t, githubConnection(gh));
    const patched = await call('PATCH', `/v1/connections/${id}`, { apply_policy: 'apply_if_safe' }, { key: writer });
    assert.equal(patched.status, 403, JSON.stringify(patched.body));
    const after = await call('GET', `/v1/connections/${id}`, undefined, { key: writer });
    assert.equal(after.body.connection.apply_policy, 'stage', 'the refused edit changed nothing');

    const stage = await call(
      'PATCH',
      `/v1/connections/${id}`,
      { name: 'renamed', apply_policy: 'stage' },
      { key: writer },
    );
    assert.equal(stage.status, 200, JSON.stringify(stage.body));
  });

  it('a key with connections:write and deltas:apply may set apply_if_safe', async () => {
    const applier = await t.keyWith({ scopes: ['connections:write', 'connections:read', 'deltas:apply'] });
    const id = await createConnection(t, githubConnection(gh));
    const patched = await call('PATCH', `/v1/connections/${id}`, { apply_policy: 'apply_if_safe' }, { key: applier });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.connection.apply_policy, 'apply_if_safe');
  });
});
