// A chaos run of the project's configuration and the writes made through it (npm run chaos; not part of npm
// test, since it is random and long): six clients create, version, retire and delete shapes while memories and
// submissions are written through them; create, version, delete and compile slices about entities that are
// deleted; and create, rotate, ping, disable and delete webhook endpoints while deltas are applied, rejected and
// reverted, half staged and half applied at once, for CHAOS_SECONDS (default 120). Then no answer may have been
// a 5xx and the graph must be whole: broad.chaos.ts's checks, plus nothing naming a shape that is gone, no
// definition node without its shape, and no secret or delivery of an endpoint that is gone. Runs of it found
// the races docs/shapes.md and docs/webhooks.md describe (a delete that overlapped a write through the shape or
// a rotation).
import assert from 'node:assert/strict';
import { call, newTenant, type Reply, type Tenant } from '../support/api.js';
import { graph } from '../preflight/support.js';
import { captureLogs } from '../support/harness.js';
import { brokenGraph } from '../support/brokenGraph.js';
import { crmDefinition } from '../shapes/fixtures.js';
import { startReceiver } from '../webhooks/receiver.js';
import { report, runClients, type ChaosOp, type ChaosOutcome } from './clients.js';

const CLIENTS = 6;
const SECONDS = Number(process.env.CHAOS_SECONDS ?? 120);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function ids(t: Tenant, cypher: string): Promise<string[]> {
  const rows = await graph().read((tx) => tx.runText(`${cypher} RETURN n.id AS id`, { p: t.projectId }));
  return rows.map((r) => String(r.id));
}

const shapeIds = (t: Tenant) => ids(t, 'MATCH (n:Shape {project_id: $p}) WHERE NOT n:Pending');
const entityIds = (t: Tenant) => ids(t, 'MATCH (n:Entity {project_id: $p}) WHERE NOT n:Pending');
const sliceIds = (t: Tenant) => ids(t, 'MATCH (n:Slice {project_id: $p}) WHERE NOT n:Pending');
const webhookIds = (t: Tenant) => ids(t, 'MATCH (n:WebhookEndpoint {project_id: $p})');

/** Deliveries of the project not yet attempted. */
async function openDeliveries(t: Tenant): Promise<number> {
  const rows = await graph().read((tx) =>
    tx.runText("MATCH (d:WebhookDelivery {project_id: $p}) WHERE d.status = 'pending' RETURN count(d) AS n", {
      p: t.projectId,
    }),
  );
  return Number(rows[0]?.n ?? 0);
}

/** What the configuration writes may not leave behind, beside brokenGraph's checks. */
async function brokenConfiguration(t: Tenant): Promise<string[]> {
  const rows = await graph().read((tx) =>
    tx.runText(
      `MATCH (n:Knowledge {project_id: $p}) WHERE n.shape_id IS NOT NULL
         AND NOT EXISTS { MATCH (s:Shape {id: n.shape_id}) }
       RETURN labels(n)[0] + ' ' + n.id + ' names shape ' + n.shape_id + ', which is gone' AS problem
       UNION ALL
       MATCH (n:Knowledge {project_id: $p}) WHERE (n:EntityType OR n:RelationshipType) AND NOT n:Pending
         AND NOT EXISTS { MATCH (s:Shape)-[d:DEFINES]->(n) WHERE NOT s:Pending AND d.pending IS NULL }
       RETURN 'definition node ' + n.id + ' without its shape' AS problem
       UNION ALL
       MATCH (n:PropertyDef {project_id: $p}) WHERE NOT n:Pending
         AND NOT EXISTS { MATCH (:EntityType)-[h:HAS_PROPERTY]->(n) WHERE h.pending IS NULL }
       RETURN 'property definition ' + n.id + ' without its type' AS problem
       UNION ALL
       MATCH (s:WebhookSecret {project_id: $p})
       WHERE NOT EXISTS { MATCH (:WebhookEndpoint {id: s.endpoint_id}) }
       RETURN 'secret ' + s.id + ' of endpoint ' + s.endpoint_id + ', which is gone' AS problem
       UNION ALL
       MATCH (w:WebhookEndpoint {project_id: $p})
       WITH w, COUNT { MATCH (s:WebhookSecret {endpoint_id: w.id}) WHERE s.expires_at IS NULL } AS current
       WHERE current <> 1
       RETURN 'endpoint ' + w.id + ' has ' + current + ' current secrets' AS problem
       UNION ALL
       MATCH (d:WebhookDelivery {project_id: $p})
       WHERE NOT EXISTS { MATCH (:WebhookEndpoint {id: d.endpoint_id}) }
       RETURN 'delivery ' + d.id + ' (' + d.status + ') of endpoint ' + d.endpoint_id + ', which is gone' AS problem`,
      { p: t.projectId },
    ),
  );
  return rows.map((r) => String(r.problem));
}

describe('chaos: configuration and the writes made through it', function () {
  this.timeout(SECONDS * 1000 + 300_000);

  it('answers no 5xx and leaves no broken graph', async () => {
    const logs = captureLogs();
    const receiver = await startReceiver();
    const t = await newTenant(0);
    const as = { key: t.key };
    const deltas: string[] = [];
    for (const name of ['Ada Lovelace', 'Acme Corp', 'Globex'])
      await call('POST', '/v1/submissions', { kind: 'note', content: `${name} works with Initech.` }, as);
    const someShape = async () => {
      const all = await shapeIds(t);
      return all.length === 0 ? null : pick(all);
    };
    const withSome = async (list: Promise<string[]>, send: (id: string) => Promise<Reply>) => {
      const all = await list;
      return all.length === 0 ? null : send(pick(all));
    };
    const ops: ChaosOp[] = [
      {
        name: 'create shape',
        weight: 6,
        send: (apply) =>
          call('POST', '/v1/shapes', { name: pick(['crm', 'ops', 'hr']), ...crmDefinition(), apply }, as),
      },
      {
        name: 'publish shape version',
        weight: 5,
        send: (apply) =>
          withSome(shapeIds(t), (id) => call('POST', `/v1/shapes/${id}/versions`, { ...crmDefinition(), apply }, as)),
      },
      {
        name: 'retire shape',
        weight: 3,
        send: (apply) => withSome(shapeIds(t), (id) => call('POST', `/v1/shapes/${id}/retire`, { apply }, as)),
      },
      {
        name: 'DELETE shape',
        weight: 6,
        send: (apply) =>
          withSome(shapeIds(t), (id) => call('DELETE', `/v1/shapes/${id}?apply=${apply}`, undefined, as)),
      },
      {
        name: 'memory through a shape',
        weight: 8,
        send: async (apply) => {
          const shape = await someShape();
          return call(
            'POST',
            '/v1/memories',
            { content: `Acme renewed ${Math.random()}.`, ...(shape ? { shape_id: shape } : {}), apply },
            as,
          );
        },
      },
      {
        name: 'submission through a shape',
        weight: 6,
        send: async (apply) => {
          const shape = await someShape();
          return call(
            'POST',
            '/v1/submissions',
            {
              kind: 'note',
              content: `${pick(['Acme Corp', 'Globex', 'Ada Lovelace'])} signed with Initech.`,
              ...(shape ? { shape_id: shape } : {}),
              apply,
            },
            as,
          );
        },
      },
      {
        name: 'create slice',
        weight: 5,
        send: async (apply) => {
          const entities = await entityIds(t);
          const subject = entities.length > 0 && Math.random() < 0.7 ? { subject: { id: pick(entities) } } : {};
          return call('POST', '/v1/slices', { name: pick(['brief', 'ops', 'sales']), ...subject, apply }, as);
        },
      },
      {
        name: 'publish slice version',
        weight: 4,
        send: async (apply) => {
          const entities = await entityIds(t);
          const subject = entities.length > 0 ? { subject: { id: pick(entities) } } : {};
          return withSome(sliceIds(t), (id) =>
            call('POST', `/v1/slices/${id}/versions`, { ...subject, query: 'renewed', apply }, as),
          );
        },
      },
      {
        name: 'DELETE slice',
        weight: 3,
        send: (apply) =>
          withSome(sliceIds(t), (id) => call('DELETE', `/v1/slices/${id}?apply=${apply}`, undefined, as)),
      },
      {
        name: 'compile slice',
        weight: 3,
        send: () => withSome(sliceIds(t), (id) => call('POST', `/v1/slices/${id}/compile`, {}, as)),
      },
      {
        name: 'DELETE entity',
        weight: 3,
        send: (apply) =>
          withSome(entityIds(t), (id) =>
            call('DELETE', `/v1/entities/${id}?detach=true&apply=${apply}`, undefined, as),
          ),
      },
      {
        name: 'review delta',
        weight: 10,
        send: () =>
          Promise.resolve(
            deltas.length === 0
              ? null
              : call('POST', `/v1/deltas/${pick(deltas)}/${pick(['apply', 'reject', 'revert'])}`, {}, as),
          ),
      },
      {
        name: 'create webhook',
        weight: 2,
        send: () => call('POST', '/v1/webhooks', { url: receiver.url, events: ['delta.applied', 'delta.staged'] }, as),
      },
      {
        name: 'rotate webhook secret',
        weight: 3,
        send: () => withSome(webhookIds(t), (id) => call('POST', `/v1/webhooks/${id}/rotate-secret`, {}, as)),
      },
      {
        name: 'ping webhook',
        weight: 3,
        send: () => withSome(webhookIds(t), (id) => call('POST', `/v1/webhooks/${id}/test`, {}, as)),
      },
      {
        name: 'PATCH webhook',
        weight: 2,
        send: () =>
          withSome(webhookIds(t), (id) => call('PATCH', `/v1/webhooks/${id}`, { enabled: Math.random() < 0.7 }, as)),
      },
      {
        name: 'DELETE webhook',
        weight: 2,
        send: () => withSome(webhookIds(t), (id) => call('DELETE', `/v1/webhooks/${id}`, undefined, as)),
      },
    ];
    let outcome: ChaosOutcome;
    try {
      outcome = await runClients(ops, { clients: CLIENTS, seconds: SECONDS, deltas });
      // Every delivery recorded runs its first attempt (one of an endpoint deleted as it was recorded is
      // removed there); a backlog of them drains within the wait.
      for (let waited = 0; waited < 180_000 && (await openDeliveries(t)) > 0; waited += 1_000) await pause(1_000);
    } finally {
      logs.stop();
      await receiver.close();
    }
    report(outcome, logs.lines);
    assert.deepEqual(outcome.serverErrors, []);
    assert.deepEqual([...(await brokenGraph(t)), ...(await brokenConfiguration(t))], []);
  });
});
