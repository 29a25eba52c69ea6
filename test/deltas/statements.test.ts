// What a governed write sends: the delta is created with its new nodes in one statement (each statement costs
// the engine work of its own, issue 27), and what that statement writes is what the separate statements wrote. The
// projects here have no webhook endpoint, so no write sends the outbox statement (test/webhooks/outbox.test.ts).
// The statements run on the real database; only their names are noted.
import assert from 'node:assert/strict';
import { DeltaDraft } from '../../src/deltas/draft.js';
import { dateValue } from '../../src/deltas/props.js';
import { stageChanges, writeGoverned, type Actor } from '../../src/deltas/service.js';
import { newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { notingGraph } from '../support/notingGraph.js';
import { crmDefinition } from '../shapes/fixtures.js';

const actorOf = (t: Tenant): Actor => ({
  projectId: t.projectId,
  organizationId: t.organizationId,
  keyId: t.keyId,
  requestId: `statements-${Date.now()}`,
});

async function written(projectId: string, deltaId: string): Promise<Record<string, unknown>[]> {
  const rows = await harness().service.deps.graph.read((tx) =>
    tx.runText(
      `MATCH (d:Delta {id: $d})-[c:CREATED]->(n:Knowledge)
       RETURN n.id AS id, labels(n) AS labels, n.project_id = $p AS in_project, n.delta_id AS delta_id,
              n.identity_key AS identity_key, n.pending_identity_key AS pending_identity_key, c.seq AS seq,
              c.change_id IS NOT NULL AS has_change_id, d.change_count AS change_count, d.status AS status
       ORDER BY c.seq`,
      { d: deltaId, p: projectId },
    ),
  );
  return rows.map((r) => ({ ...r, labels: (r.labels as string[]).slice().sort(), seq: Number(r.seq) }));
}

describe('the statements of a governed write', () => {
  it('creates a delta of new nodes with them in one statement: nodes applied at once are committed', async () => {
    const t = await newTenant(0);
    const draft = new DeltaDraft('test', 'two nodes');
    const a = draft.createNode(['Entity', 'Person'], { name: 'Ada' }, { identityKey: `${t.projectId}|Person|ada` });
    const b = draft.createNode(['Memory'], { content: 'Ada wrote notes.', kind: 'fact' });
    const ran: string[] = [];
    const outcome = await writeGoverned(notingGraph(ran), draft, actorOf(t), true);
    assert.equal(outcome.status, 'applied');
    assert.deepEqual(ran, ['deltas/create']);
    assert.deepEqual(await written(t.projectId, outcome.deltaId), [
      {
        id: a,
        labels: ['Entity', 'Knowledge', 'Person'],
        in_project: true,
        delta_id: outcome.deltaId,
        identity_key: `${t.projectId}|Person|ada`,
        pending_identity_key: null,
        seq: 0,
        has_change_id: true,
        change_count: 2,
        status: 'applied',
      },
      {
        id: b,
        labels: ['Knowledge', 'Memory'],
        in_project: true,
        delta_id: outcome.deltaId,
        identity_key: null,
        pending_identity_key: null,
        seq: 1,
        has_change_id: true,
        change_count: 2,
        status: 'applied',
      },
    ]);
  });

  it('stages new nodes as pending in the same one statement, and their relationships after it', async () => {
    const t = await newTenant(0);
    const draft = new DeltaDraft('test', 'staged pair');
    const a = draft.createNode(['Entity', 'Person'], { name: 'Grace' }, { identityKey: `${t.projectId}|Person|grace` });
    const b = draft.createNode(['Entity', 'Organization'], { name: 'Navy' });
    draft.createRelationship(a, 'WORKS_FOR', b);
    const ran: string[] = [];
    const outcome = await writeGoverned(notingGraph(ran), draft, actorOf(t), false);
    assert.equal(outcome.status, 'staged');
    assert.deepEqual(ran, ['deltas/create', 'deltas/stage_relationships']);
    const nodes = await written(t.projectId, outcome.deltaId);
    assert.deepEqual(
      nodes.map((n) => [
        n.id,
        (n.labels as string[]).includes('Pending'),
        n.identity_key,
        n.pending_identity_key,
        n.seq,
      ]),
      [
        [a, true, null, `${t.projectId}|Person|grace`, 0],
        [b, true, null, null, 1],
      ],
    );
    assert.ok(nodes.every((n) => n.change_count === 3 && n.status === 'staged'));
  });

  it('writes every new node of a batch with exactly its properties, those the nodes share sent once', async () => {
    const t = await newTenant(0);
    const props = (i: number) => ({
      kind: 'fact',
      tags: ['a', 'b'],
      date_observed: dateValue('2026-11-29'),
      seen_at: new Date(Date.UTC(2026, 10, 29, i)),
      content: `note ${i}`,
      ...(i === 1 ? { source_context: 'only the second' } : {}),
    });
    const graph = harness().service.deps.graph;
    const ids = { applied: [] as string[], staged: [] as string[], added: [] as string[] };
    let stagedDelta = '';
    for (const [status, apply] of [
      ['applied', true],
      ['staged', false],
    ] as const) {
      const draft = new DeltaDraft('test', 'three notes');
      for (let i = 0; i < 3; i += 1) ids[status].push(draft.createNode(['Memory'], props(i)));
      const outcome = await writeGoverned(graph, draft, actorOf(t), apply);
      assert.equal(outcome.status, status);
      if (!apply) stagedDelta = outcome.deltaId;
    }
    // Nodes added to a staged delta that exists (as a loop stages them) go through deltas/stage_nodes.
    const more = new DeltaDraft('test', 'three more');
    for (let i = 0; i < 3; i += 1) ids.added.push(more.createNode(['Memory'], props(i)));
    await graph.write((tx) => stageChanges(tx, more, stagedDelta, t.projectId, new Date().toISOString()));
    for (const list of Object.values(ids)) {
      const rows = await graph.read((tx) =>
        tx.runText(
          `UNWIND $ids AS id MATCH (n:Memory {id: id})
           RETURN n.kind AS kind, n.tags AS tags, toString(n.date_observed) AS date_observed,
                  toString(n.seen_at) AS seen_at, n.content AS content, n.source_context AS source_context`,
          { ids: list },
        ),
      );
      assert.deepEqual(
        rows,
        [0, 1, 2].map((i) => ({
          kind: 'fact',
          tags: ['a', 'b'],
          date_observed: '2026-11-29',
          seen_at: `2026-11-29T0${i}:00:00Z`,
          content: `note ${i}`,
          source_context: i === 1 ? 'only the second' : null,
        })),
      );
    }
  });

  it('takes the locks of the project shapes a write names before it creates the nodes made through them', async () => {
    const t = await newTenant(0);
    const shape = await t.post('/v1/shapes', { name: 'crm', ...crmDefinition() });
    assert.equal(shape.status, 201, JSON.stringify(shape.body));
    const draft = new DeltaDraft('test', 'through a shape');
    draft.createNode(['Memory'], { content: 'Acme renewed.', kind: 'fact', shape_id: shape.body.id as string });
    const ran: string[] = [];
    const outcome = await writeGoverned(notingGraph(ran), draft, actorOf(t), true);
    assert.equal(outcome.status, 'applied');
    assert.deepEqual(ran, ['deltas/lock_shapes', 'deltas/create']);
  });

  it('refuses a write to a project that does not exist and leaves nothing', async () => {
    const t = await newTenant(0);
    const actor = { ...actorOf(t), projectId: '00000000-0000-4000-8000-0000000000aa' };
    const draft = new DeltaDraft('test', 'nowhere');
    const id = draft.createNode(['Memory'], { content: 'Lost.', kind: 'fact' });
    await assert.rejects(writeGoverned(harness().service.deps.graph, draft, actor, true), /does not exist/);
    const [row] = await harness().service.deps.graph.read((tx) =>
      tx.runText('OPTIONAL MATCH (n:Knowledge {id: $id}) RETURN n IS NULL AS gone', { id }),
    );
    assert.equal(row?.gone, true);
  });
});
