// Work a connection does later (scheduled syncs, apply_if_safe) acts as a key that must still be
// valid and hold the scope that names the effect, checked each time it acts.
import assert from 'node:assert/strict';
import { issueKey } from '../../src/auth/keys.js';
import type { Scope } from '../../src/auth/scopes.js';
import { call, newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { github, makeIssues, startStandIn, type StandIn } from './standins.js';
import { get, githubConnection, post, waitForSync } from './support.js';

async function keyFor(t: Tenant, scopes?: Scope[]): Promise<{ id: string; key: string }> {
  const issued = await issueKey(harness().service.deps.graph, {
    organizationId: t.organizationId,
    projectId: t.projectId,
    ...(scopes ? { scopes } : {}),
  });
  return { id: issued.id, key: issued.key };
}

async function revoke(keyId: string): Promise<void> {
  await harness().service.deps.graph.write((tx) => tx.run('auth/revoke_key', { id: keyId }));
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('a connection acts later only as a key that is still valid', function () {
  this.timeout(180_000);
  let gh: StandIn;
  before(async () => {
    gh = await startStandIn(github);
    gh.issues = makeIssues(2);
  });
  after(async () => {
    await gh.close();
  });

  it('a scheduled sync after its creating key is revoked pauses the connection (key_revoked) and runs nothing; resuming with another key makes that key act', async () => {
    const t = await newTenant();
    const creator = await keyFor(t);
    const created = await call('POST', '/v1/connections', githubConnection(gh, { schedule: { every: 'PT1H' } }), {
      key: creator.key,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = String(created.body.connection.id);
    await revoke(creator.id);

    const client = await harness().service.gateway.getClient();
    const schedule = client.schedule.getHandle(`sync-schedule-${id}`);
    await schedule.trigger();
    const paused = await until('the connection to pause', async () => {
      const c = (await get(t, `/v1/connections/${id}`)).body.connection;
      return c.status === 'paused' ? c : undefined;
    });
    assert.equal(paused.status_reason, 'key_revoked');
    assert.deepEqual((await get(t, `/v1/connections/${id}/syncs`)).body.syncs, [], 'no sync ran for the revoked key');

    // Resuming with a valid key restores the status and makes it the acting key: the next run syncs.
    assert.equal((await post(t, `/v1/connections/${id}/resume`, {})).status, 200);
    const resumed = (await get(t, `/v1/connections/${id}`)).body.connection;
    assert.notEqual(resumed.status, 'paused');
    assert.equal(resumed.status_reason, null);
    await schedule.trigger();
    const sync = await until('a scheduled sync', async () => {
      const syncs = (await get(t, `/v1/connections/${id}/syncs`)).body.syncs as { sync_id: string }[];
      return syncs[0];
    });
    const done = await waitForSync(t, id, sync.sync_id);
    assert.equal(done.status, 'completed');
    assert.equal(done.records.created, 2);
  });

  it('a scheduled sync whose acting key no longer holds connections:sync pauses with key_lacks_scope', async () => {
    const t = await newTenant();
    const narrow = await keyFor(t, ['connections:write', 'connections:read']);
    const created = await call('POST', '/v1/connections', githubConnection(gh, { schedule: { every: 'PT1H' } }), {
      key: narrow.key,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = String(created.body.connection.id);
    await (await harness().service.gateway.getClient()).schedule.getHandle(`sync-schedule-${id}`).trigger();
    const paused = await until('the connection to pause', async () => {
      const c = (await get(t, `/v1/connections/${id}`)).body.connection;
      return c.status === 'paused' ? c : undefined;
    });
    assert.equal(paused.status_reason, 'key_lacks_scope');
  });

  it('apply_if_safe applies only when the key the sync acts as holds deltas:apply at that moment', async () => {
    const t = await newTenant();
    const id = String(
      (await post(t, '/v1/connections', githubConnection(gh, { apply_policy: 'apply_if_safe' }))).body.connection.id,
    );
    const syncer = await keyFor(t, ['connections:sync', 'connections:read']);
    const started = await call('POST', `/v1/connections/${id}/sync`, {}, { key: syncer.key });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const done = await waitForSync(t, id, started.body.sync_id);
    assert.equal(done.status, 'completed');
    assert.equal(done.apply_outcome, 'left_staged:key_cannot_apply');
    const delta = (await get(t, `/v1/deltas/${done.delta_id}`)).body.delta;
    assert.equal(delta.status, 'staged');
  });
});
