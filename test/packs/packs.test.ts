// Saved context packs: a governed write of origin "context" that records what a pack selected, read
// back by id and in cursor pages; the selections check warns before a selected memory is deleted.
import assert from 'node:assert/strict';
import { call, newTenant, type Tenant } from '../support/api.js';
import { findingsOf } from '../preflight/support.js';
import { harness } from '../support/harness.js';

const del = (t: Tenant, path: string) => call('DELETE', path, undefined, { key: t.key });

async function remember(t: Tenant, content: string): Promise<string> {
  const reply = await t.post('/v1/memories', { content, kind: 'decision' });
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return String(reply.body.id);
}

const memorySlice = { slice: { planes: ['memory'], budget: { max_tokens: 400 } } };

describe('context packs', function () {
  this.timeout(240_000);

  it('saves a compiled pack as a governed write and reads it back with its SELECTED items', async () => {
    const t = await newTenant(0);
    const a = await remember(t, 'We ship the engine weekly.');
    const b = await remember(t, 'Engine reviews happen on Tuesdays.');
    const compiled = await t.post('/v1/context/compile', { ...memorySlice, query: 'engine' });
    assert.equal(compiled.status, 200, JSON.stringify(compiled.body));
    const saved = await t.post('/v1/context/packs', { ...memorySlice, query: 'engine' });
    assert.equal(saved.status, 201, JSON.stringify(saved.body));
    assert.equal(saved.body.status, 'applied');
    assert.equal(saved.body.applied, true);
    assert.equal(saved.body.pack.pack_id, compiled.body.pack_id);
    assert.equal(saved.body.pack.id, saved.body.id, 'the answer names the saved record inside the pack too');
    const delta = await t.get(`/v1/deltas/${saved.body.delta_id}`);
    assert.equal(delta.body.delta.origin, 'context');

    const read = await t.get(`/v1/context/packs/${saved.body.id}`);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    const pack = read.body.pack;
    assert.equal(pack.id, saved.body.id);
    assert.equal(pack.pack_id, compiled.body.pack_id);
    assert.deepEqual(pack.hashes, compiled.body.hashes);
    assert.equal(pack.slice, null);
    assert.equal(pack.query, 'engine');
    assert.equal(pack.budget.used_tokens, compiled.body.budget.used_tokens);
    assert.equal(pack.item_count, 2);
    const items = compiled.body.sections[0].items as { id: string; ref: string }[];
    assert.deepEqual(
      pack.selected,
      items.map((item, i) => ({ id: item.id, type: 'memory', ref: item.ref, section: 'memory', rank: i + 1 })),
    );
    assert.deepEqual(pack.selected.map((s: { id: string }) => s.id).sort(), [a, b].sort());

    // Compiling stayed read-only: the compile wrote no pack, only the save did.
    const list = await t.get('/v1/context/packs');
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.packs.map((p: { id: string }) => p.id),
      [saved.body.id],
    );
    assert.deepEqual(list.body.packs[0].selected, []);
  });

  it('links a pack compiled from a saved slice to it; stages with apply false; pages the list', async () => {
    const t = await newTenant(0);
    await remember(t, 'Deploys happen on Friday.');
    const slice = await t.post('/v1/slices', { name: 'deploys', planes: ['memory'] });
    assert.equal(slice.status, 201, JSON.stringify(slice.body));
    const first = await t.post('/v1/context/packs', { slice_id: slice.body.id });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.deepEqual(first.body.pack.slice, { id: slice.body.id, version: 1 });
    const read = await t.get(`/v1/context/packs/${first.body.id}`);
    assert.deepEqual(read.body.pack.slice, { id: slice.body.id, version: 1 });
    const [row] = await harness().service.deps.graph.read((tx) =>
      tx.runText('MATCH (:ContextPack {id: $id})-[:COMPILED_FROM]->(s:Slice) RETURN s.id AS id', {
        id: first.body.id,
      }),
    );
    assert.equal(row?.id, slice.body.id);

    const second = await t.post('/v1/context/packs', { slice_id: slice.body.id });
    assert.equal(second.status, 201);
    assert.notEqual(second.body.id, first.body.id, 'every save is its own record');
    const staged = await t.post('/v1/context/packs', { slice_id: slice.body.id, apply: false });
    assert.equal(staged.status, 201, JSON.stringify(staged.body));
    assert.equal(staged.body.status, 'staged');
    assert.equal((await t.get(`/v1/context/packs/${staged.body.id}`)).status, 404);

    const page1 = await t.get('/v1/context/packs?limit=1');
    assert.equal(page1.status, 200, JSON.stringify(page1.body));
    assert.equal(page1.body.has_more, true);
    const page2 = await t.get(`/v1/context/packs?limit=1&cursor=${page1.body.next_cursor}`);
    assert.equal(page2.body.has_more, false);
    assert.equal(page2.body.next_cursor, null);
    assert.deepEqual(
      [...page1.body.packs, ...page2.body.packs].map((p: { id: string }) => p.id),
      [second.body.id, first.body.id],
    );
    assert.equal((await t.get('/v1/context/packs?cursor=eyJjIjoieCIsImkiOiJ5In0')).status, 400);
  });

  it("answers 404 for another project's pack or an unknown slice, 403 naming context:write, 400 for bad bodies", async () => {
    const a = await newTenant(0);
    const b = await newTenant(0);
    await remember(a, 'Only in project a.');
    const saved = await a.post('/v1/context/packs', memorySlice);
    assert.equal(saved.status, 201, JSON.stringify(saved.body));
    assert.equal((await b.get(`/v1/context/packs/${saved.body.id}`)).status, 404);
    assert.deepEqual((await b.get('/v1/context/packs')).body.packs, []);
    assert.equal((await a.post('/v1/context/packs', { slice_id: 'nope' })).status, 404);
    const readOnly = await a.keyWith({ scopes: ['context:read'] });
    const refused = await call('POST', '/v1/context/packs', memorySlice, { key: readOnly });
    assert.equal(refused.status, 403);
    assert.match(JSON.stringify(refused.body.error), /context:write/);
    assert.equal((await call('GET', `/v1/context/packs/${saved.body.id}`, undefined, { key: readOnly })).status, 200);
    const bad = await a.post('/v1/context/packs', { ...memorySlice, apply: 'yes', extra: 1 });
    assert.equal(bad.status, 400);
    assert.equal((await a.post('/v1/context/packs', { apply: true })).status, 400);
  });

  it('deleting a memory a saved pack selected is a selections warning naming the pack; one no pack selected is not', async () => {
    const t = await newTenant(0);
    const selected = await remember(t, 'The engine ships weekly.');
    const other = await remember(t, 'Lunch is at noon.');
    const saved = await t.post('/v1/context/packs', { ...memorySlice, query: 'engine' });
    assert.equal(saved.status, 201, JSON.stringify(saved.body));
    assert.deepEqual(
      (await t.get(`/v1/context/packs/${saved.body.id}`)).body.pack.selected.map((s: { id: string }) => s.id),
      [selected],
    );

    const risky = await del(t, `/v1/memories/${selected}?apply=false`);
    assert.equal(risky.status, 200, JSON.stringify(risky.body));
    const found = await findingsOf(t, String(risky.body.delta_id), 'selections');
    assert.equal(found.length, 1);
    assert.equal(found[0]!.severity, 'warning');
    assert.equal(found[0]!.evidence.rule, 'selected_memory_deleted');
    assert.equal(found[0]!.evidence.node_id, saved.body.id);
    assert.equal(found[0]!.evidence.pack_id, saved.body.pack.pack_id);
    assert.deepEqual(found[0]!.node_ids, [selected, saved.body.id].sort());
    assert.match(found[0]!.message, new RegExp(`context pack ${String(saved.body.id)}`));

    const benign = await del(t, `/v1/memories/${other}?apply=false`);
    assert.equal(benign.status, 200, JSON.stringify(benign.body));
    assert.deepEqual(await findingsOf(t, String(benign.body.delta_id), 'selections'), []);

    // Deleted anyway (the warning overridden): the SELECTED link goes with the memory, the pack keeps its hashes.
    const before = (await t.get(`/v1/context/packs/${saved.body.id}`)).body.pack;
    const applied = await t.post(`/v1/deltas/${risky.body.delta_id}/apply`, { override_reason: 'obsolete' });
    assert.equal(applied.status, 200, JSON.stringify(applied.body));
    const after = (await t.get(`/v1/context/packs/${saved.body.id}`)).body.pack;
    assert.deepEqual(after.selected, []);
    assert.equal(after.item_count, 1);
    assert.deepEqual(after.hashes, before.hashes);
    assert.equal(after.pack_id, before.pack_id);
  });
});
