import assert from 'node:assert/strict';
import { newTenant, call, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { startReceiver, type Receiver } from './receiver.js';
import { createWebhook, until, withSchedule } from './support.js';

async function withPrivateRefused<T>(run: () => Promise<T>): Promise<T> {
  const fetch = harness().service.deps.config.fetch;
  fetch.allowPrivate = false;
  try {
    return await run();
  } finally {
    fetch.allowPrivate = true;
  }
}

describe('webhooks: endpoints, secrets, scopes, deliveries', function () {
  this.timeout(180_000);
  let receiver: Receiver;
  let t: Tenant;

  before(async () => {
    receiver = await startReceiver();
  });
  beforeEach(async () => {
    t = await newTenant();
  });
  after(() => receiver.close());

  it('create answers the secret once (whsec_); reads show only its fingerprint; the graph holds it sealed', async () => {
    const reply = await t.post('/v1/webhooks', {
      url: receiver.url,
      events: ['delta.applied', 'delta.staged'],
      description: 'reviewers',
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    const { webhook, secret } = reply.body;
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.equal(webhook.enabled, true);
    assert.equal(webhook.description, 'reviewers');
    assert.deepEqual(webhook.events, ['delta.applied', 'delta.staged']);
    assert.match(webhook.secret.fingerprint, /^hmac:[0-9a-f]{16}$/);
    assert.equal(webhook.secret.previous_expires_at, null);
    const read = await t.get(`/v1/webhooks/${webhook.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.webhook, webhook);
    assert.ok(!JSON.stringify(read.body).includes(secret));
    const [row] = await harness().service.deps.graph.read((tx) =>
      tx.runText(
        `MATCH (n) WHERE any(k IN keys(n) WHERE n[k] IS :: STRING AND n[k] CONTAINS $s) RETURN count(n) AS c`,
        { s: secret.slice(6) },
      ),
    );
    assert.equal(Number(row?.c), 0, 'the secret is nowhere in the graph in plaintext');
  });

  it('create and rotate-secret honour Idempotency-Key: a replay answers the same secret, kept sealed; another body is 409', async () => {
    const body = { url: receiver.url, events: ['delta.applied'] };
    const key = { headers: { 'Idempotency-Key': `create-${t.keyId}` } };
    const first = await t.post('/v1/webhooks', body, key);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const again = await t.post('/v1/webhooks', body, key);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.webhook.id, first.body.webhook.id, 'one endpoint');
    assert.equal(again.body.secret, first.body.secret, 'the same secret, answered again');
    assert.equal((await t.get('/v1/webhooks')).body.webhooks.length, 1);
    const other = await t.post('/v1/webhooks', { ...body, description: 'other' }, key);
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, 'idempotency_conflict');
    const id = String(first.body.webhook.id);
    const rotateKey = { headers: { 'Idempotency-Key': `rotate-${t.keyId}` } };
    const rotated = await t.post(`/v1/webhooks/${id}/rotate-secret`, {}, rotateKey);
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const replayed = await t.post(`/v1/webhooks/${id}/rotate-secret`, {}, rotateKey);
    assert.equal(replayed.body.secret, rotated.body.secret, 'a replay does not rotate again');
    assert.equal(replayed.body.webhook.secret.fingerprint, rotated.body.webhook.secret.fingerprint);
    for (const secret of [first.body.secret as string, rotated.body.secret as string]) {
      const [row] = await harness().service.deps.graph.read((tx) =>
        tx.runText(
          `MATCH (n) WHERE any(k IN keys(n) WHERE n[k] IS :: STRING AND n[k] CONTAINS $s) RETURN count(n) AS c`,
          { s: secret.slice(6) },
        ),
      );
      assert.equal(Number(row?.c), 0, 'no idempotency record holds the secret in plaintext');
    }
  });

  it('list pages newest first with a cursor; PATCH edits; DELETE removes (404 after)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await createWebhook(t, receiver.url, ['delta.applied'])).id);
    const first = await t.get('/v1/webhooks?limit=2');
    assert.equal(first.status, 200);
    assert.equal(first.body.webhooks.length, 2);
    assert.equal(first.body.has_more, true);
    const second = await t.get(`/v1/webhooks?limit=2&cursor=${first.body.next_cursor}`);
    assert.equal(second.body.webhooks.length, 1);
    assert.equal(second.body.has_more, false);
    assert.equal(second.body.next_cursor, null);
    const listed = [...first.body.webhooks, ...second.body.webhooks].map((w: { id: string }) => w.id);
    assert.deepEqual([...listed].sort(), [...ids].sort());
    const bad = await t.get('/v1/webhooks?cursor=bm90LWEtY3Vyc29y');
    assert.equal(bad.status, 400);
    const id = ids[0]!;
    const patched = await call(
      'PATCH',
      `/v1/webhooks/${id}`,
      { events: ['loop.completed'], description: 'loops only', enabled: false },
      { key: t.key },
    );
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(patched.body.webhook.events, ['loop.completed']);
    assert.equal(patched.body.webhook.enabled, false);
    assert.equal(patched.body.webhook.disabled_reason, 'disabled through the API');
    const ping = await t.post(`/v1/webhooks/${id}/test`, {});
    assert.equal(ping.status, 409, 'a disabled endpoint is not pinged');
    const removed = await call('DELETE', `/v1/webhooks/${id}`, undefined, { key: t.key });
    assert.deepEqual([removed.status, removed.body.deleted], [200, true]);
    assert.equal((await t.get(`/v1/webhooks/${id}`)).status, 404);
    assert.equal((await call('DELETE', `/v1/webhooks/${id}`, undefined, { key: t.key })).status, 404);
  });

  it('bad input is a 400 naming the field and writes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ url: receiver.url, events: [] }, '/body/events'],
      [{ url: receiver.url, events: ['delta.exploded'] }, '/body/events/0'],
      [{ url: receiver.url, events: ['ping'] }, '/body/events/0'],
      [{ url: 'ftp://example.com/x', events: ['delta.applied'] }, '/body/url'],
      [{ url: 'not a url', events: ['delta.applied'] }, '/body/url'],
      [{ events: ['delta.applied'] }, '/body/url'],
      [{ url: receiver.url, events: ['delta.applied'], extra: 1 }, '/body/extra'],
    ];
    for (const [body, field] of cases) {
      const reply = await t.post('/v1/webhooks', body);
      assert.equal(reply.status, 400, JSON.stringify(body));
      const fields = (reply.body.error.details.fields ?? []) as { field: string }[];
      assert.ok(
        fields.some((f) => f.field === field),
        `${JSON.stringify(body)} names ${field}: ${JSON.stringify(fields)}`,
      );
    }
    assert.equal((await t.get('/v1/webhooks')).body.webhooks.length, 0);
  });

  it('a private-address URL is refused at create and at PATCH unless configuration allows it, and at delivery time too', async () => {
    await withPrivateRefused(async () => {
      for (const url of ['http://127.0.0.1:9/x', 'http://10.0.0.8/x', 'http://[::1]/x', 'http://localhost/x']) {
        const reply = await t.post('/v1/webhooks', { url, events: ['delta.applied'] });
        assert.equal(reply.status, 400, url);
        assert.equal(reply.body.error.details.fields[0].field, '/body/url');
        assert.match(reply.body.error.message, /private address/);
      }
    });
    const hook = await createWebhook(t, receiver.url, ['delta.applied']);
    await withPrivateRefused(async () => {
      const patched = await call('PATCH', `/v1/webhooks/${hook.id}`, { url: 'http://192.168.1.1/' }, { key: t.key });
      assert.equal(patched.status, 400);
      assert.equal((await t.get(`/v1/webhooks/${hook.id}`)).body.webhook.url, receiver.url);
      // Allowed when created, refused when sent: the guard runs again at every attempt.
      const before = receiver.received.length;
      await withSchedule([], async () => {
        await t.post('/v1/memories', { content: 'Not sent to a private address.' });
        const d = await until('the refused attempt', async () => {
          const [delivery] = (await t.get(`/v1/webhooks/${hook.id}/deliveries`)).body.deliveries;
          return delivery?.attempt_count === 1 ? delivery : undefined;
        });
        assert.equal(d.last_status_code, null);
        assert.match(d.last_error, /private address/);
      });
      assert.equal(receiver.received.length, before);
    });
  });

  it('scopes: webhooks:read reads but cannot write; a key without webhooks scopes gets 403; another project sees 404', async () => {
    const hook = await createWebhook(t, receiver.url, ['delta.applied']);
    const reader = await t.keyWith({ scopes: ['webhooks:read'] });
    assert.equal((await call('GET', `/v1/webhooks/${hook.id}`, undefined, { key: reader })).status, 200);
    assert.equal((await call('GET', `/v1/webhooks/${hook.id}/deliveries`, undefined, { key: reader })).status, 200);
    for (const [method, path, body] of [
      ['POST', '/v1/webhooks', { url: receiver.url, events: ['delta.applied'] }],
      ['PATCH', `/v1/webhooks/${hook.id}`, { enabled: false }],
      ['DELETE', `/v1/webhooks/${hook.id}`, undefined],
      ['POST', `/v1/webhooks/${hook.id}/rotate-secret`, {}],
      ['POST', `/v1/webhooks/${hook.id}/test`, {}],
    ] as const) {
      const reply = await call(method, path, body, { key: reader });
      assert.equal(reply.status, 403, `${method} ${path}`);
      assert.equal(reply.body.error.details.missing_scope, 'webhooks:write');
    }
    const none = await t.keyWith({ scopes: ['memories:read'] });
    const refused = await call('GET', '/v1/webhooks', undefined, { key: none });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.details.missing_scope, 'webhooks:read');
    const other = await newTenant();
    assert.equal((await other.get(`/v1/webhooks/${hook.id}`)).status, 404);
    assert.equal((await other.post(`/v1/webhooks/${hook.id}/rotate-secret`, {})).status, 404);
  });

  it('without a secrets key a create is 503 secrets_unavailable and writes nothing', async () => {
    const secrets = harness().service.deps.config.secrets;
    const key = secrets.key;
    secrets.key = null;
    try {
      const reply = await t.post('/v1/webhooks', { url: receiver.url, events: ['delta.applied'] });
      assert.equal(reply.status, 503);
      assert.equal(reply.body.error.code, 'secrets_unavailable');
    } finally {
      secrets.key = key;
    }
    assert.equal((await t.get('/v1/webhooks')).body.webhooks.length, 0);
  });

  it('ping and redeliver: the test route queues a ping; redeliver sends the same event again as a new delivery', async () => {
    const hook = await createWebhook(t, receiver.url, ['delta.applied']);
    const before = receiver.received.length;
    const ping = await t.post(`/v1/webhooks/${hook.id}/test`, {});
    assert.equal(ping.status, 202, JSON.stringify(ping.body));
    assert.equal(ping.body.status, 'queued');
    await receiver.waitFor(before + 1);
    const delivered = await until('the ping delivery', async () => {
      const list = (await t.get(`/v1/webhooks/${hook.id}/deliveries`)).body.deliveries;
      return list.find(
        (d: { id: string; status: string }) => d.id === ping.body.delivery_id && d.status === 'succeeded',
      );
    });
    assert.equal(delivered.event_type, 'ping');
    assert.equal(delivered.event_id, ping.body.event_id);
    const again = await t.post(`/v1/webhooks/${hook.id}/deliveries/${delivered.id}/redeliver`, {});
    assert.equal(again.status, 202, JSON.stringify(again.body));
    assert.equal(again.body.delivery.redelivery_of, delivered.id);
    assert.equal(again.body.delivery.event_id, ping.body.event_id);
    await receiver.waitFor(before + 2);
    const [a, b] = receiver.received.slice(before);
    assert.equal(a?.headers['webhook-id'], b?.headers['webhook-id'], 'the same webhook-id: receivers can deduplicate');
    assert.equal(JSON.parse(b!.body).type, 'ping');
    // Two deliveries now, newest first, paged one at a time.
    const page = await t.get(`/v1/webhooks/${hook.id}/deliveries?limit=1`);
    assert.equal(page.body.deliveries[0].id, again.body.delivery.id);
    const next = await t.get(`/v1/webhooks/${hook.id}/deliveries?limit=1&cursor=${page.body.next_cursor}`);
    assert.equal(next.body.deliveries[0].id, delivered.id);
    assert.equal(next.body.has_more, false);
    const missing = await t.post(`/v1/webhooks/${hook.id}/deliveries/whd_nope/redeliver`, {});
    assert.equal(missing.status, 404);
  });

  it('PATCH /v1/credits sets the organization threshold with an organization key; a project key is 403; null turns it off', async () => {
    const projectKey = await call('PATCH', '/v1/credits', { low_balance_threshold: 10 }, { key: t.key });
    assert.equal(projectKey.status, 403);
    const orgKey = await t.keyWith({ organization: true });
    const set = await call('PATCH', '/v1/credits', { low_balance_threshold: 10 }, { key: orgKey });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.low_balance_threshold, 10);
    assert.equal((await t.get('/v1/credits')).body.low_balance_threshold, 10);
    const bad = await call('PATCH', '/v1/credits', { low_balance_threshold: -1 }, { key: orgKey });
    assert.equal(bad.status, 400);
    const off = await call('PATCH', '/v1/credits', { low_balance_threshold: null }, { key: orgKey });
    assert.equal(off.body.low_balance_threshold, null);
  });
});
