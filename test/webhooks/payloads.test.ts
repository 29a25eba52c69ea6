import assert from 'node:assert/strict';
import { call, newTenant } from '../support/api.js';
import { createDocument, GENERAL_SHAPE_ID, waitForLoop } from '../loops/support.js';
import { github, startStandIn, type StandIn } from '../connections/standins.js';
import { createConnection, githubConnection, syncNow } from '../connections/support.js';
import { startReceiver, type Receiver } from './receiver.js';
import { ALL_EVENTS, createWebhook, until } from './support.js';

const MARKER = 'Zanzibar-quokka-7731';

describe('webhooks: payloads of every event type carry ids, status and links, never content or secrets', function () {
  this.timeout(300_000);
  let receiver: Receiver;
  let gh: StandIn;

  before(async () => {
    receiver = await startReceiver();
    gh = await startStandIn(github);
  });
  after(async () => {
    await receiver.close();
    await gh.close();
  });

  it('delta, loop, sync and ping events: {id, type, created_at, project_id, data}, no memory content, no token, no secret', async () => {
    const t = await newTenant(1000);
    const hook = await createWebhook(t, receiver.url, ALL_EVENTS);
    // Deltas: staged then rejected, applied then reverted, each with the marker in its content.
    const staged = await t.post('/v1/memories', { content: `${MARKER} staged`, subject: MARKER, apply: false });
    assert.equal((await t.post(`/v1/deltas/${staged.body.delta_id}/reject`, { reason: MARKER })).status, 200);
    const applied = await t.post('/v1/memories', { content: `${MARKER} applied`, subject: MARKER });
    assert.equal((await t.post(`/v1/deltas/${applied.body.delta_id}/revert`, { reason: MARKER })).status, 200);
    // The organization's low-balance threshold at its balance: the loop's reservation crosses it.
    const orgKey = await t.keyWith({ organization: true });
    const threshold = await call('PATCH', '/v1/credits', { low_balance_threshold: 1000 }, { key: orgKey });
    assert.equal(threshold.status, 200, JSON.stringify(threshold.body));
    // A loop over a document holding the marker: loop.completed and its delta staged for review.
    const doc = await createDocument(t, `Nothing of note happened to ${MARKER}. The rain stopped before dusk.`);
    const loop = await t.post('/v1/loops', {
      kind: 'graph_extraction',
      goal: `map ${MARKER}`,
      context: { source_ids: [doc] },
      schema: { shape_ids: [GENERAL_SHAPE_ID] },
      loop: { max_iterations: 1 },
    });
    assert.equal(loop.status, 202, JSON.stringify(loop.body));
    assert.equal((await waitForLoop(t, loop.body.loop_id)).status, 'completed');
    // A sync that completes and one that fails (a wrong token).
    const ok = await createConnection(t, githubConnection(gh));
    assert.equal((await syncNow(t, ok)).status, 'completed');
    const wrong = `${gh.token}-wrong`;
    const bad = await createConnection(t, githubConnection(gh, { name: 'bad', secret: { token: wrong } }));
    assert.equal((await syncNow(t, bad)).status, 'failed');
    assert.equal((await t.post(`/v1/webhooks/${hook.id}/test`, {})).status, 202);

    const expected = [
      'delta.staged',
      'delta.rejected',
      'delta.applied',
      'delta.reverted',
      'loop.completed',
      'sync.completed',
      'sync.failed',
      'credits.low',
      'ping',
    ];
    const events = await until('every event type to arrive', async () => {
      const seen = receiver.verified(hook.secret);
      return expected.every((type) => seen.some((e) => e.type === type)) ? seen : undefined;
    });
    const texts = [MARKER, gh.token, wrong, hook.secret, 'Issue 1', 'flux capacitor', 'Nothing of note'];
    for (const r of receiver.received) for (const text of texts) assert.ok(!r.body.includes(text), `${text} leaked`);
    for (const e of events) {
      assert.deepEqual(Object.keys(e).sort(), ['created_at', 'data', 'id', 'project_id', 'type']);
      assert.equal(e.project_id, t.projectId);
      const data = e.data as Record<string, unknown>;
      assert.ok(typeof data.status === 'string', `${e.type} has a status`);
      assert.ok(data.links && typeof data.links === 'object', `${e.type} has links`);
      // Every value is an id, a status word, a number, null or a link: nothing longer a user wrote.
      for (const [key, value] of Object.entries(data)) {
        if (key === 'links') continue;
        assert.ok(value === null || typeof value !== 'string' || /^[\w.:-]{1,80}$/.test(value), `${key}: ${value}`);
      }
    }
    const loopEvent = events.find((e) => e.type === 'loop.completed')!;
    assert.deepEqual(loopEvent.data, {
      loop_id: loop.body.loop_id,
      kind: 'graph_extraction',
      status: 'completed',
      stop_reason: (loopEvent.data as { stop_reason: string }).stop_reason,
      delta_id: loop.body.delta_id,
      links: { loop: `/v1/loops/${loop.body.loop_id}`, delta: `/v1/deltas/${loop.body.delta_id}` },
    });
    const low = events.filter((e) => e.type === 'credits.low');
    assert.equal(low.length, 1, 'one crossing, one credits.low');
    assert.deepEqual(low[0]?.data, {
      organization_id: t.organizationId,
      status: 'low',
      balance: (low[0]?.data as { balance: number }).balance,
      threshold: 1000,
      links: { credits: '/v1/credits' },
    });
    assert.ok((low[0]?.data as { balance: number }).balance < 1000);
    const staging = events
      .filter((e) => e.type === 'delta.staged')
      .map((e) => (e.data as { delta_id: string }).delta_id);
    assert.ok(staging.includes(loop.body.delta_id), 'the loop delta is announced as staged when the loop ends');
  });
});
