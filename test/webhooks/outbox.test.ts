// The outbox statement (webhooks/emit) is sent by a governed write only while its project counts a webhook
// endpoint (issue 27: each statement costs the engine work of its own, and most projects have no endpoint). The
// count is on the project's node (webhook_endpoints), kept by endpoint creates and deletes under the project's lock,
// so concurrent edits leave it exact; a project from before the count sends the statement until the service's start
// counts its endpoints (cypher/schema/210_webhook_endpoint_count.cypher).
import assert from 'node:assert/strict';
import { DeltaDraft } from '../../src/deltas/draft.js';
import { applySchema } from '../../src/db/schema.js';
import { writeGoverned, type Actor } from '../../src/deltas/service.js';
import { call, newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { notingGraph } from '../support/notingGraph.js';
import { startReceiver, type Receiver } from './receiver.js';
import { createWebhook } from './support.js';

const actorOf = (t: Tenant): Actor => ({
  projectId: t.projectId,
  organizationId: t.organizationId,
  keyId: t.keyId,
  requestId: `outbox-${Date.now()}`,
});

/** A memory written applied at once; the statements its transaction sent, and its delta. */
async function writeOne(t: Tenant): Promise<{ ran: string[]; deltaId: string }> {
  const draft = new DeltaDraft('test', 'one memory');
  draft.createNode(['Memory'], { content: 'The outbox is gated.', kind: 'fact' });
  const ran: string[] = [];
  const outcome = await writeGoverned(notingGraph(ran), draft, actorOf(t), true);
  assert.equal(outcome.status, 'applied');
  return { ran, deltaId: outcome.deltaId };
}

async function graphRow(text: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const [row] = await harness().service.deps.graph.read((tx) => tx.runText(text, params));
  assert.ok(row, text);
  return row;
}

/** The project's count, and the endpoints the graph holds for it. */
async function counted(projectId: string): Promise<{ count: unknown; endpoints: number }> {
  const row = await graphRow(
    `MATCH (p:TenantProject {id: $p})
     RETURN p.webhook_endpoints AS count, COUNT { MATCH (w:WebhookEndpoint {project_id: $p}) } AS endpoints`,
    { p: projectId },
  );
  return { count: row.count, endpoints: Number(row.endpoints) };
}

/** The delta.applied events the outbox recorded for a delta. */
async function eventsOf(projectId: string, deltaId: string): Promise<number> {
  const row = await graphRow(
    `MATCH (e:WebhookEvent {project_id: $p})
     WHERE e.type = 'delta.applied' AND e.data CONTAINS $d
     RETURN count(e) AS n`,
    { p: projectId, d: deltaId },
  );
  return Number(row.n);
}

const deleteWebhook = (t: Tenant, id: string) => call('DELETE', `/v1/webhooks/${id}`, undefined, { key: t.key });

describe('the outbox statement is sent only while the project counts a webhook endpoint', function () {
  this.timeout(120_000);
  let receiver: Receiver;
  let t: Tenant;

  before(async () => {
    receiver = await startReceiver();
  });
  beforeEach(async () => {
    t = await newTenant(0);
  });
  after(() => receiver.close());

  it('a new project counts no endpoint, and its write sends no outbox statement and records no event', async () => {
    assert.deepEqual(await counted(t.projectId), { count: 0, endpoints: 0 });
    const { ran, deltaId } = await writeOne(t);
    assert.deepEqual(ran, ['deltas/create']);
    assert.equal(await eventsOf(t.projectId, deltaId), 0);
  });

  it('with an endpoint the write records its event after the delta; once the endpoint is deleted it sends none', async () => {
    const hook = await createWebhook(t, receiver.url, ['delta.applied']);
    assert.deepEqual(await counted(t.projectId), { count: 1, endpoints: 1 });
    const first = await writeOne(t);
    assert.deepEqual(first.ran, ['deltas/create', 'webhooks/emit']);
    assert.equal(await eventsOf(t.projectId, first.deltaId), 1);

    const deleted = await deleteWebhook(t, hook.id);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.deepEqual(await counted(t.projectId), { count: 0, endpoints: 0 });
    const second = await writeOne(t);
    assert.deepEqual(second.ran, ['deltas/create']);
    assert.equal(await eventsOf(t.projectId, second.deltaId), 0);
  });

  it('a disabled endpoint still counts, and an endpoint not subscribed to the event gets no event recorded', async () => {
    const hook = await createWebhook(t, receiver.url, ['delta.rejected']);
    const patched = await call('PATCH', `/v1/webhooks/${hook.id}`, { enabled: false }, { key: t.key });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(await counted(t.projectId), { count: 1, endpoints: 1 });
    const { ran, deltaId } = await writeOne(t);
    assert.deepEqual(ran, ['deltas/create', 'webhooks/emit']);
    assert.equal(await eventsOf(t.projectId, deltaId), 0);
  });

  it('a project from before the count (none on its node) sends the statement, and its endpoint gets the event', async () => {
    await createWebhook(t, receiver.url, ['delta.applied']);
    await harness().service.deps.graph.write((tx) =>
      tx.runText('MATCH (p:TenantProject {id: $p}) REMOVE p.webhook_endpoints', { p: t.projectId }),
    );
    const { ran, deltaId } = await writeOne(t);
    assert.deepEqual(ran, ['deltas/create', 'webhooks/emit']);
    assert.equal(await eventsOf(t.projectId, deltaId), 1);
  });

  it('a project from before the count is counted when the service starts (the schema), then writes as a new one', async () => {
    await Promise.all([createWebhook(t, receiver.url), createWebhook(t, receiver.url)]);
    const quiet = await newTenant(0);
    const graph = harness().service.deps.graph;
    await graph.write((tx) =>
      tx.runText('MATCH (p:TenantProject) WHERE p.id IN $ids REMOVE p.webhook_endpoints', {
        ids: [t.projectId, quiet.projectId],
      }),
    );
    assert.deepEqual(await counted(quiet.projectId), { count: null, endpoints: 0 });
    await applySchema(graph);
    assert.deepEqual(await counted(t.projectId), { count: 2, endpoints: 2 });
    assert.deepEqual(await counted(quiet.projectId), { count: 0, endpoints: 0 });
    assert.deepEqual((await writeOne(quiet)).ran, ['deltas/create']);
    assert.deepEqual((await writeOne(t)).ran, ['deltas/create', 'webhooks/emit']);
  });

  it('creates and deletes at once leave the count equal to the endpoints the project holds', async () => {
    const made = await Promise.all(Array.from({ length: 6 }, () => createWebhook(t, receiver.url, ['delta.applied'])));
    assert.deepEqual(await counted(t.projectId), { count: 6, endpoints: 6 });
    const replies = await Promise.all([
      ...made.slice(0, 3).map((hook) => deleteWebhook(t, hook.id)),
      ...Array.from({ length: 2 }, () => t.post('/v1/webhooks', { url: receiver.url, events: ['delta.applied'] })),
    ]);
    assert.deepEqual(
      replies.map((r) => r.status),
      [200, 200, 200, 201, 201],
    );
    assert.deepEqual(await counted(t.projectId), { count: 5, endpoints: 5 });
    // Deleting what is left, all at once, brings the count back to 0, and writes send no outbox statement again.
    const left = await harness().service.deps.graph.read((tx) =>
      tx.runText('MATCH (w:WebhookEndpoint {project_id: $p}) RETURN w.id AS id', { p: t.projectId }),
    );
    await Promise.all(left.map((row) => deleteWebhook(t, String(row.id))));
    assert.deepEqual(await counted(t.projectId), { count: 0, endpoints: 0 });
    assert.deepEqual((await writeOne(t)).ran, ['deltas/create']);
  });
});
