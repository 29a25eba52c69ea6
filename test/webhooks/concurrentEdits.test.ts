// Edits of one webhook endpoint that overlap. A raw transaction stands in for a slow writer: it holds a lock the
// requests reach, so both requests have read the endpoint before either writes. Two rotations at once must leave
// one signing secret, not two that never expire; a delete that overlaps a rotation or a dispatch must leave no
// secret and no delivery record of the endpoint behind.
import assert from 'node:assert/strict';
import type { Driver } from 'neo4j-driver';
import { call, newTenant, type Reply, type Tenant } from '../support/api.js';
import { harness, useRawDriver } from '../support/harness.js';
import { whileLocked } from '../support/locks.js';
import { createWebhookActivities } from '../../src/webhooks/activities.js';
import { startReceiver, type Receiver } from './receiver.js';
import { createWebhook, until } from './support.js';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function secretsOf(driver: Driver, endpointId: string): Promise<{ current: number; all: number }> {
  const result = await driver.executeQuery(
    `MATCH (s:WebhookSecret {endpoint_id: $id})
     RETURN count(CASE WHEN s.expires_at IS NULL THEN 1 END) AS current, count(s) AS all`,
    { id: endpointId },
  );
  const row = result.records[0]!;
  return { current: Number(row.get('current')), all: Number(row.get('all')) };
}

async function deliveriesOf(driver: Driver, endpointId: string): Promise<number> {
  const result = await driver.executeQuery('MATCH (d:WebhookDelivery {endpoint_id: $id}) RETURN count(d) AS n', {
    id: endpointId,
  });
  return Number(result.records[0]!.get('n'));
}

describe('concurrent edits of one webhook endpoint', function () {
  this.timeout(120_000);
  const driver = useRawDriver();
  let receiver: Receiver;
  let t: Tenant;

  before(async () => {
    receiver = await startReceiver();
  });
  beforeEach(async () => {
    t = await newTenant();
  });
  after(() => receiver.close());

  it('two rotations at once leave one current secret; the first new one expires and the original is removed', async () => {
    const { id } = await createWebhook(t, receiver.url, ['delta.applied']);
    const replies = await whileLocked(
      driver(),
      { cypher: 'MATCH (n:WebhookSecret {endpoint_id: $id})', params: { id } },
      () => [t.post(`/v1/webhooks/${id}/rotate-secret`, {}), t.post(`/v1/webhooks/${id}/rotate-secret`, {})],
    );
    for (const reply of replies) assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(await secretsOf(driver(), id), { current: 1, all: 2 });
  });

  it('a delete that overlaps a rotation leaves no secret of the endpoint', async () => {
    const { id } = await createWebhook(t, receiver.url, ['delta.applied']);
    const replies = await whileLocked(
      driver(),
      { cypher: 'MATCH (n:WebhookSecret {endpoint_id: $id})', params: { id } },
      () => {
        const rotated = t.post(`/v1/webhooks/${id}/rotate-secret`, {});
        return [rotated, pause(300).then(() => call('DELETE', `/v1/webhooks/${id}`, undefined, { key: t.key }))];
      },
    );
    assert.equal(replies[1]!.status, 200, JSON.stringify(replies[1]!.body));
    assert.ok([200, 404].includes(replies[0]!.status), JSON.stringify(replies[0]!.body));
    assert.deepEqual(await secretsOf(driver(), id), { current: 0, all: 0 });
  });

  it('a rotation that waited for a delete finds the endpoint gone: 404, and no secret of it is left', async () => {
    const { id } = await createWebhook(t, receiver.url, ['delta.applied']);
    const session = driver().session();
    const tx = session.beginTransaction();
    let rotated: Promise<Reply> | undefined;
    try {
      await tx.run('MATCH (w:WebhookEndpoint {id: $id}) SET w.enabled = false', { id });
      rotated = t.post(`/v1/webhooks/${id}/rotate-secret`, {});
      await pause(1_000);
      // What the delete does, committed while the rotation waits for the endpoint's lock.
      await tx.run('MATCH (s:WebhookSecret {endpoint_id: $id}) DETACH DELETE s', { id });
      await tx.run('MATCH (w:WebhookEndpoint {id: $id}) DETACH DELETE w', { id });
      await tx.commit();
    } finally {
      await session.close();
    }
    const reply = await rotated;
    assert.equal(reply.status, 404, JSON.stringify(reply.body));
    assert.deepEqual(await secretsOf(driver(), id), { current: 0, all: 0 });
  });

  it('a delete that overlaps a dispatch leaves no delivery record of the endpoint', async () => {
    const { id } = await createWebhook(t, receiver.url, ['delta.applied']);
    const before = receiver.received.length;
    const replies = await whileLocked(
      driver(),
      { cypher: 'MATCH (n:WebhookEndpoint {id: $id})', params: { id } },
      () => {
        // The ping is recorded and dispatched while the delete waits for the endpoint's lock.
        const deleted = pause(200).then(() => call('DELETE', `/v1/webhooks/${id}`, undefined, { key: t.key }));
        return [t.post(`/v1/webhooks/${id}/test`, {}), deleted];
      },
    );
    assert.equal(replies[0]!.status, 202, JSON.stringify(replies[0]!.body));
    assert.equal(replies[1]!.status, 200, JSON.stringify(replies[1]!.body));
    // Whether or not the ping went out first, nothing of the endpoint stays once its workflow has run.
    await until('the delivery records to go', async () =>
      (await deliveriesOf(driver(), id)) === 0 ? true : undefined,
    );
    assert.ok(receiver.received.length >= before);
  });

  it('a delivery recorded as its endpoint was deleted is removed at its first attempt, and nothing is sent', async () => {
    const { id } = await createWebhook(t, receiver.url, ['delta.applied']);
    const ping = await t.post(`/v1/webhooks/${id}/test`, {});
    assert.equal(ping.status, 202, JSON.stringify(ping.body));
    const deliveryId = String(ping.body.delivery_id);
    await until('the ping to be delivered', async () => {
      const list = (await t.get(`/v1/webhooks/${id}/deliveries`)).body.deliveries as { id: string; status: string }[];
      return list.some((d) => d.id === deliveryId && d.status === 'succeeded') ? true : undefined;
    });
    // What the overlap leaves: the endpoint and its secrets gone, one delivery record of it still there.
    await driver().executeQuery(
      'MATCH (w:WebhookEndpoint {id: $id}) OPTIONAL MATCH (s:WebhookSecret {endpoint_id: $id}) DETACH DELETE w, s',
      { id },
    );
    const sent = receiver.received.length;
    const { deps } = harness().service;
    const activities = createWebhookActivities({ graph: deps.graph, config: deps.config });
    const result = await activities.attemptWebhookDelivery({ delivery_id: deliveryId, retry_in_ms: null });
    assert.equal(result.outcome, 'cancelled');
    assert.equal(await deliveriesOf(driver(), id), 0);
    assert.equal(receiver.received.length, sent);
  });
});
