import assert from 'node:assert/strict';
import { newTenant, call, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { startWorker } from '../../src/temporal/worker.js';
import { WebhookDispatcher } from '../../src/webhooks/dispatch.js';
import { startReceiver, type Receiver } from './receiver.js';
import { createWebhook, until, withSchedule } from './support.js';

async function deliveries(t: Tenant, id: string) {
  const reply = await t.get(`/v1/webhooks/${id}/deliveries`);
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.deliveries as {
    id: string;
    status: string;
    attempt_count: number;
    last_status_code: number | null;
    last_latency_ms: number | null;
    next_retry_at: string | null;
    event_type: string;
  }[];
}

describe('webhooks: delivery of delta events to a local receiver', function () {
  this.timeout(180_000);
  let receiver: Receiver;
  let t: Tenant;

  beforeEach(async () => {
    receiver = await startReceiver();
    t = await newTenant();
  });
  afterEach(() => receiver.close());

  it('a staged then applied delta gives delta.staged then delta.applied, each verified by the library with the secret', async () => {
    const hook = await createWebhook(t, receiver.url);
    const staged = await t.post('/v1/memories', { content: 'The reactor runs at 40 MW.', apply: false });
    assert.equal(staged.status, 201);
    await receiver.waitFor(1);
    const applied = await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {});
    assert.equal(applied.status, 200, JSON.stringify(applied.body));
    await receiver.waitFor(2);
    const events = receiver.verified(hook.secret);
    assert.deepEqual(
      events.map((e) => [e.type, (e.data as { delta_id: string }).delta_id]),
      [
        ['delta.staged', staged.body.delta_id],
        ['delta.applied', staged.body.delta_id],
      ],
    );
    assert.equal(events[0]?.project_id, t.projectId);
    assert.deepEqual(Object.keys(events[1] ?? {}).sort(), ['created_at', 'data', 'id', 'project_id', 'type']);
    assert.deepEqual(events[1]?.data, {
      delta_id: staged.body.delta_id,
      status: 'applied',
      links: { delta: `/v1/deltas/${staged.body.delta_id}` },
    });
    // webhook-id is the event id; a forged signature is refused by the same verifier.
    assert.equal(receiver.received[0]?.headers['webhook-id'], events[0]?.id);
    const forged = { ...receiver.received[0]!.headers, 'webhook-signature': 'v1,AAAA' };
    const { Webhook } = await import('standardwebhooks');
    assert.throws(() => new Webhook(hook.secret).verify(receiver.received[0]!.body, forged));
  });

  it('an applied delta is one delta.applied, also when its apply is retried (a second apply and an idempotent replay send nothing more)', async () => {
    await createWebhook(t, receiver.url, ['delta.applied']);
    const staged = await t.post('/v1/memories', { content: 'Once only.', apply: false });
    const headers = { 'Idempotency-Key': `apply-${staged.body.delta_id}` };
    const first = await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {}, { headers });
    assert.equal(first.status, 200);
    const replay = await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {}, { headers });
    assert.equal(replay.status, 200);
    const again = await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {});
    assert.equal(again.status, 409);
    await receiver.waitFor(1);
    await new Promise((r) => setTimeout(r, 2_500)); // a second delivery would have come by now
    assert.equal(receiver.received.length, 1);
    const [row] = await harness().service.deps.graph.read((tx) =>
      tx.runText('MATCH (e:WebhookEvent {project_id: $p}) RETURN count(e) AS n', { p: t.projectId }),
    );
    assert.equal(Number(row?.n), 1, 'one event in the outbox');
  });

  it('a receiver answering 500 then 200 gets the retry; the delivery records attempts, last status code and latency', async () => {
    const hook = await createWebhook(t, receiver.url, ['delta.applied']);
    receiver.answers.push(500);
    await withSchedule([1_000, 60_000], async () => {
      await t.post('/v1/memories', { content: 'Retried.' });
      await receiver.waitFor(1);
      const retrying = await until('the delivery to record its failed attempt', async () => {
        const [d] = await deliveries(t, hook.id);
        return d?.status === 'retrying' ? d : undefined;
      });
      assert.equal(retrying.last_status_code, 500);
      assert.ok(retrying.next_retry_at !== null);
      await receiver.waitFor(2);
    });
    const done = await until('the delivery to succeed', async () => {
      const [d] = await deliveries(t, hook.id);
      return d?.status === 'succeeded' ? d : undefined;
    });
    assert.equal(done.attempt_count, 2);
    assert.equal(done.last_status_code, 200);
    assert.ok((done.last_latency_ms ?? -1) >= 0);
    assert.equal(done.next_retry_at, null);
    // Both attempts carry the same webhook-id (receivers deduplicate on it) and verify.
    const [a, b] = receiver.received;
    assert.equal(a?.headers['webhook-id'], b?.headers['webhook-id']);
    assert.equal(receiver.verified(hook.secret).length, 2);
  });

  it('a restart of the worker while a retry waits, and events written while it is down, still deliver', async () => {
    const service = harness().service;
    const hook = await createWebhook(t, receiver.url, ['delta.applied', 'delta.staged']);
    receiver.answers.push(503);
    await withSchedule([4_000], async () => {
      await t.post('/v1/memories', { content: 'Survives a restart.' });
      await receiver.waitFor(1);
      await until('the failed attempt to be recorded', async () => {
        const [d] = await deliveries(t, hook.id);
        return d?.status === 'retrying' ? d : undefined;
      });
      // Stop everything that delivers: the dispatcher and the worker (started again whatever happens).
      await service.dispatcher?.stop();
      await service.worker?.stop();
      const restart = async () => {
        const deps = service.deps;
        const worker = await startWorker(service.gateway.settings, {
          graph: deps.graph,
          config: deps.config,
          logger: deps.logger,
          embedder: deps.embedder,
        });
        service.worker = worker;
        deps.runtime.worker = worker;
        const dispatcher = new WebhookDispatcher(
          deps.graph,
          deps.config,
          () => service.gateway.getClient(),
          () => {},
        );
        service.dispatcher = dispatcher;
        dispatcher.start();
      };
      try {
        const whileDown = await t.post('/v1/memories', { content: 'Written while down.', apply: false });
        assert.equal(whileDown.status, 201);
        await new Promise((r) => setTimeout(r, 5_000)); // the retry is due while no worker runs
        assert.equal(receiver.received.length, 1, 'nothing is sent while the worker is down');
      } finally {
        await restart();
      }
      await receiver.waitFor(3, 120_000);
    });
    const types = receiver.verified(hook.secret).map((e) => e.type);
    assert.deepEqual(types.sort(), ['delta.applied', 'delta.applied', 'delta.staged']);
    // A delivery is recorded once its attempt completes, a moment after the receiver has it.
    const all = await until('both deliveries to be recorded as succeeded', async () => {
      const found = await deliveries(t, hook.id);
      return found.length === 2 && found.every((d) => d.status === 'succeeded') ? found : undefined;
    });
    assert.deepEqual(all.map((d) => d.status).sort(), ['succeeded', 'succeeded']);
  });

  it('rotation: old and new secrets both sign during the overlap, then only the new one', async () => {
    const hook = await createWebhook(t, receiver.url, ['delta.applied']);
    const rotated = await t.post(`/v1/webhooks/${hook.id}/rotate-secret`, {});
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const fresh = rotated.body.secret as string;
    assert.notEqual(fresh, hook.secret);
    assert.ok(Date.parse(rotated.body.webhook.secret.previous_expires_at) > Date.now() + 23 * 3600_000);
    await t.post('/v1/memories', { content: 'Signed twice.' });
    await receiver.waitFor(1);
    assert.equal(receiver.received[0]?.headers['webhook-signature']?.split(' ').length, 2);
    assert.equal(receiver.verified(hook.secret).length, 1, 'the old secret still verifies');
    assert.equal(receiver.verified(fresh).length, 1, 'the new secret verifies');
    // A second rotation with no overlap: the first secret is gone, the second stops at once.
    const overlap = harness().service.deps.config.webhooks;
    const before = overlap.secretOverlapMs;
    overlap.secretOverlapMs = 0;
    let third: string;
    try {
      const again = await t.post(`/v1/webhooks/${hook.id}/rotate-secret`, {});
      third = again.body.secret as string;
    } finally {
      overlap.secretOverlapMs = before;
    }
    await t.post('/v1/memories', { content: 'Signed once.' });
    await receiver.waitFor(2);
    const last = receiver.received[1]!;
    assert.equal(last.headers['webhook-signature']?.split(' ').length, 1, last.headers['webhook-signature']);
    const { Webhook } = await import('standardwebhooks');
    assert.doesNotThrow(() => new Webhook(third).verify(last.body, last.headers));
    assert.throws(() => new Webhook(fresh).verify(last.body, last.headers));
    assert.throws(() => new Webhook(hook.secret).verify(last.body, last.headers));
  });

  it('every attempt failing for the (compressed) retry window disables the endpoint with a reason, and webhook.disabled tells the others', async () => {
    const watcher = await startReceiver();
    try {
      const failing = await createWebhook(t, receiver.url, ['delta.applied']);
      const other = await createWebhook(t, watcher.url, ['webhook.disabled']);
      receiver.answers.push(500, 500, 500);
      await withSchedule([300, 300], async () => {
        await t.post('/v1/memories', { content: 'Nobody home.' });
        await receiver.waitFor(3);
      });
      const disabled = await until('the endpoint to be disabled', async () => {
        const reply = await t.get(`/v1/webhooks/${failing.id}`);
        return reply.body.webhook.enabled === false ? reply.body.webhook : undefined;
      });
      assert.match(disabled.disabled_reason, /failed within the retry window \(last: HTTP 500\)/);
      const [d] = await deliveries(t, failing.id);
      assert.equal(d?.status, 'failed');
      assert.equal(d?.attempt_count, 3);
      await watcher.waitFor(1);
      const [event] = watcher.verified(other.secret);
      assert.equal(event?.type, 'webhook.disabled');
      assert.deepEqual(event?.data, {
        webhook_id: failing.id,
        status: 'disabled',
        delivery_id: d?.id,
        event_id: (d as unknown as { event_id: string }).event_id,
        links: { webhook: `/v1/webhooks/${failing.id}` },
      });
      // Disabled endpoints get nothing more; enabling clears the reason.
      await t.post('/v1/memories', { content: 'Not sent.' });
      await new Promise((r) => setTimeout(r, 2_000));
      assert.equal(receiver.received.length, 3);
      const enabled = await call('PATCH', `/v1/webhooks/${failing.id}`, { enabled: true }, { key: t.key });
      assert.equal(enabled.status, 200);
      assert.equal(enabled.body.webhook.disabled_reason, null);
    } finally {
      await watcher.close();
    }
  });
});
