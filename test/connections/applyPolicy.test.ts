import assert from 'node:assert/strict';
import { newTenant, type Tenant } from '../support/api.js';
import { STORY } from '../loops/support.js';
import { github, startStandIn, type StandIn } from './standins.js';
import { createConnection, deltaChanges, githubConnection, syncNow } from './support.js';

describe('connection syncs with apply_policy apply_if_safe', function () {
  this.timeout(300_000);
  let gh: StandIn;
  let t: Tenant;
  let connectionId: string;
  const docId = new Map<number, string>();

  before(async () => {
    gh = await startStandIn(github);
    gh.issues = [
      { number: 1, title: 'Who built the engine', body: STORY, updated_at: '2026-01-01T00:00:00.000Z' },
      { number: 2, title: 'Unrelated chores', body: 'Tidy the changelog.', updated_at: '2026-01-01T00:01:00.000Z' },
    ];
    t = await newTenant(10_000);
    connectionId = await createConnection(t, githubConnection(gh, { apply_policy: 'apply_if_safe' }));
  });

  after(async () => {
    await gh.close();
  });

  it('a first sync whose audit is SafeToAct is applied at once', async () => {
    const sync = await syncNow(t, connectionId);
    assert.equal(sync.apply_outcome, 'applied_safe', JSON.stringify(sync));
    assert.equal(sync.delta_status, 'applied');
    for (const c of await deltaChanges(t, sync.delta_id))
      if (c.op === 'create_node' && c.labels?.includes('Document'))
        docId.set(Number(String(c.properties.external_id).split('#')[1]), String(c.node_id));
    assert.equal(docId.size, 2);
  });

  it('an upstream edit re-chunks its document and is applied at once (new chunks replace the old: no loss)', async () => {
    gh.issues[1] = {
      ...gh.issues[1]!,
      body: 'Tidy the changelog and the README.',
      updated_at: '2026-03-01T00:00:00.000Z',
    };
    const sync = await syncNow(t, connectionId);
    assert.equal(sync.records.updated, 1);
    assert.equal(sync.apply_outcome, 'applied_safe', JSON.stringify(sync));
    assert.equal(sync.delta_status, 'applied');
    const changes = await deltaChanges(t, sync.delta_id);
    assert.ok(
      changes.some((c) => c.op === 'delete_node'),
      'the old chunks are deleted',
    );
    assert.ok(changes.some((c) => c.op === 'create_relationship' && c.type === 'HAS_CHUNK'));
  });

  it('an upstream edit that would delete chunks a saved context pack selected stays staged for review', async () => {
    const saved = await t.post('/v1/context/packs', {
      slice: { planes: ['document'], budget: { max_tokens: 400 } },
      query: 'Lovelace',
    });
    assert.equal(saved.status, 201, JSON.stringify(saved.body));
    const selected = (await t.get(`/v1/context/packs/${String(saved.body.id)}`)).body.pack.selected as {
      type: string;
    }[];
    assert.ok(
      selected.some((s) => s.type === 'chunk'),
      JSON.stringify(selected),
    );

    gh.issues[0] = {
      ...gh.issues[0]!,
      body: 'Rewritten: nobody is named here.',
      updated_at: '2026-04-01T00:00:00.000Z',
    };
    const sync = await syncNow(t, connectionId);
    assert.equal(sync.records.updated, 1);
    assert.equal(sync.apply_outcome, 'left_staged:ReviewRequired', JSON.stringify(sync));
    assert.equal(sync.delta_status, 'staged');
    const audit = await t.post('/v1/preflight/audit', { delta_id: sync.delta_id });
    assert.equal(audit.status, 200, JSON.stringify(audit.body));
    assert.equal(audit.body.disposition, 'ReviewRequired');
    const losses = audit.body.findings.filter((f: { check: string }) => f.check === 'losses');
    assert.ok(losses.length > 0, JSON.stringify(audit.body.findings));
    for (const f of losses as { evidence: { relationship_types: string[] } }[])
      assert.deepEqual(f.evidence.relationship_types, ['SELECTED'], 'only the pack loses its links, not the document');
    const cursor = async () => (await t.get(`/v1/connections/${connectionId}`)).body.connection.cursor;
    assert.equal(await cursor(), '2026-03-01T00:00:00.000Z', 'the cursor waits for the review');
    // A reviewer who accepts the loss applies on the review path; the cursor then advances.
    assert.equal((await t.post(`/v1/deltas/${String(sync.delta_id)}/apply`, {})).status, 200);
    assert.equal(await cursor(), '2026-04-01T00:00:00.000Z');
  });
});
