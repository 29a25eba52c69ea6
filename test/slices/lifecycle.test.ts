import assert from 'node:assert/strict';
import { call, newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { assertGovernedWrite } from '../support/assertions.js';
import { DeltaDraft } from '../../src/deltas/draft.js';
import { seedAdaGraph } from '../context/fixtures.js';

const del = (t: Tenant, path: string) => call('DELETE', path, undefined, { key: t.key });

describe('slices lifecycle', function () {
  this.timeout(240_000); // the shared 2-core machine runs many engines at once

  it('saves a slice through one applied delta as :Knowledge:Slice focusing on its subject, with defaults filled', async () => {
    const t = await newTenant(0);
    const ids = await seedAdaGraph(t);
    const created = await t.post('/v1/slices', {
      name: 'ada-brief',
      subject: { id: ids.ada },
      query: 'engine',
      filters: { memory: { kinds: ['decision'] } },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assertGovernedWrite(created.body, t.projectId, 'applied');
    const s = created.body.slice;
    assert.equal(s.id, created.body.id);
    assert.equal(s.version, 1);
    assert.deepEqual(s.planes, ['memory', 'document', 'entity']);
    assert.equal(s.hops, 1);
    assert.deepEqual(s.budget, {
      max_tokens: 4000,
      tokenizer: 'cl100k_base',
      sections: { memory: 0.3333, document: 0.3333, entity: 0.3333 },
    });
    assert.equal(s.format, 'markdown');
    assert.equal(s.time_window, null);
    assert.deepEqual((await t.get(`/v1/slices/${s.id}`)).body.slice, s);
    const delta = await t.get(`/v1/deltas/${created.body.delta_id}`);
    assert.equal(delta.body.delta.origin, 'slice');
    const rows = await harness().service.deps.graph.read((tx) =>
      tx.runText(
        'MATCH (s:Knowledge:Slice {id: $id})-[:FOCUSES_ON]->(e:Entity) RETURN e.id AS subject, s.planes AS planes, s.max_tokens AS max_tokens',
        { id: s.id },
      ),
    );
    assert.deepEqual(rows, [{ subject: ids.ada, planes: ['memory', 'document', 'entity'], max_tokens: 4000 }]);
    const compiled = await t.post(`/v1/slices/${s.id}/compile`, {});
    assert.equal(compiled.status, 200, JSON.stringify(compiled.body));
    assert.deepEqual(compiled.body.slice, { id: s.id, version: 1 });
    assert.equal(compiled.body.query, 'engine');
  });

  it('refuses a duplicate name, and a staged slice cannot be read or compiled until applied', async () => {
    const t = await newTenant(0);
    const staged = await t.post('/v1/slices', { name: 'ops', apply: false });
    assert.equal(staged.status, 201);
    assertGovernedWrite(staged.body, t.projectId, 'staged');
    assert.equal(staged.body.slice.name, 'ops');
    assert.equal((await t.get(`/v1/slices/${staged.body.id}`)).status, 404);
    const compile = await t.post(`/v1/slices/${staged.body.id}/compile`, {});
    assert.equal(compile.status, 409);
    assert.equal(compile.body.error.details.delta_id, staged.body.delta_id);
    assert.equal((await t.post('/v1/context/compile', { slice_id: staged.body.id })).status, 409);
    const clash = await t.post('/v1/slices', { name: 'ops' });
    assert.equal(clash.status, 409);
    assert.equal(clash.body.error.details.delta_id, staged.body.delta_id);
    const applied = await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {});
    assert.equal(applied.status, 200, JSON.stringify(applied.body));
    assert.equal((await t.post(`/v1/slices/${staged.body.id}/compile`, {})).status, 200);
    assert.equal((await t.post('/v1/slices', { name: 'ops' })).status, 409);
  });

  it('a new version supersedes the old one; only the latest may be versioned; lists page by cursor', async () => {
    const t = await newTenant(0);
    const v1 = await t.post('/v1/slices', { name: 'weekly', hops: 0 });
    const v2 = await t.post(`/v1/slices/${v1.body.id}/versions`, {
      hops: 2,
      budget: { max_tokens: 1000, sections: { memory: 0.7, entity: 0.2 } },
    });
    assert.equal(v2.status, 201, JSON.stringify(v2.body));
    assert.equal(v2.body.slice.version, 2);
    assert.equal(v2.body.slice.name, 'weekly');
    assert.equal(v2.body.slice.supersedes, v1.body.id);
    assert.deepEqual(v2.body.slice.budget.sections, { memory: 0.7, entity: 0.2 });
    const old = await t.get(`/v1/slices/${v1.body.id}`);
    assert.equal(old.body.slice.superseded_by, v2.body.id);
    assert.equal(old.body.slice.hops, 0);
    const stale = await t.post(`/v1/slices/${v1.body.id}/versions`, {});
    assert.equal(stale.status, 409);
    assert.equal(stale.body.error.details.latest_version_id, v2.body.id);
    await t.post('/v1/slices', { name: 'daily' });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { slices: { name: string; version: number }[]; next_cursor: string | null } } = await t.get(
        `/v1/slices?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.body.slices.map((s) => `${s.name}@${s.version}`));
      cursor = page.body.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, ['daily@1', 'weekly@2', 'weekly@1']);
    assert.deepEqual(
      (await t.get('/v1/slices?name=weekly')).body.slices.map((s: { version: number }) => s.version),
      [2, 1],
    );
  });

  it('deletes a version through a delta, staged first when asked', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/slices', { name: 'gone' });
    const staged = await del(t, `/v1/slices/${created.body.id}?apply=false`);
    assert.equal(staged.status, 200, JSON.stringify(staged.body));
    assert.equal(staged.body.status, 'staged');
    assert.equal((await t.get(`/v1/slices/${created.body.id}`)).status, 200);
    const applied = await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {});
    assert.equal(applied.status, 200, JSON.stringify(applied.body));
    assert.equal((await t.get(`/v1/slices/${created.body.id}`)).status, 404);
    assert.equal((await del(t, `/v1/slices/${created.body.id}`)).status, 404);
  });

  it("answers 404 for another project's slice, 403 naming a missing scope, 400 with pointers for bad definitions", async () => {
    const a = await newTenant(0);
    const b = await newTenant(0);
    const mine = await a.post('/v1/slices', { name: 'mine' });
    assert.equal((await b.get(`/v1/slices/${mine.body.id}`)).status, 404);
    assert.equal((await b.post(`/v1/slices/${mine.body.id}/compile`, {})).status, 404);
    assert.equal((await b.post('/v1/context/compile', { slice_id: mine.body.id })).status, 404);
    const readOnly = await a.keyWith({ scopes: ['slices:read'] });
    const refused = await call('POST', '/v1/slices', { name: 'x' }, { key: readOnly });
    assert.equal(refused.status, 403);
    assert.match(JSON.stringify(refused.body.error), /slices:write/);
    const noContext = await call('POST', '/v1/context/compile', { slice: {} }, { key: readOnly });
    assert.equal(noContext.status, 403);
    assert.match(JSON.stringify(noContext.body.error), /context:read/);
    const bad: [Record<string, unknown>, string][] = [
      [{ planes: ['memory', 'video'] }, '/body/planes/1'],
      [{ hops: 3 }, '/body/hops'],
      [{ budget: { sections: { memory: 0.6, entity: 0.5 } } }, '/body/budget/sections'],
      [{ budget: { max_tokens: 255 } }, '/body/budget/max_tokens'],
      [{ budget: { max_tokens: 128001 } }, '/body/budget/max_tokens'],
      [{ budget: { tokenizer: 'gpt2' } }, '/body/budget/tokenizer'],
      [{ time_window: { last: 'P3X' } }, '/body/time_window'],
      [{ time_window: { last: 'PT' } }, '/body/time_window'],
      [{ planes: ['memory'], filters: { entity: { types: ['Person'] } } }, '/body/filters/entity'],
      [{ planes: ['memory'], budget: { sections: { entity: 0.5 } } }, '/body/budget/sections/entity'],
      [{ subject: { id: 'no-such-entity' } }, '/body/subject/id'],
      [{ name: 'Not A Slug' }, '/body/name'],
    ];
    for (const [fields, pointer] of bad) {
      const reply = await a.post('/v1/slices', { name: 'bad', ...fields });
      assert.equal(reply.status, 400, `${JSON.stringify(fields)} → ${reply.status}`);
      const named = reply.body.error.details.fields.map((f: { field: string }) => f.field);
      assert.ok(
        named.some((f: string) => f.startsWith(pointer)),
        `${JSON.stringify(fields)} names ${pointer}: ${named.join(', ')}`,
      );
    }
    const inline = await a.post('/v1/context/compile', { slice: { hops: 5 } });
    assert.equal(inline.status, 400);
    assert.ok(inline.body.error.details.fields.some((f: { field: string }) => f.field === '/body/slice/hops'));
    assert.equal((await a.post('/v1/context/compile', { slice: {}, max_tokens: 100 })).status, 400);
    assert.equal((await a.post('/v1/context/compile', { slice: {}, slice_id: mine.body.id })).status, 400);
    assert.equal((await a.post('/v1/context/compile', {})).status, 400);
  });

  it('Slice is a reserved label: only slice drafts may stage it', () => {
    assert.throws(
      () => new DeltaDraft('submission', 'x').createNode(['Slice'], { name: 'sneaky' }),
      /label Slice may not be staged/,
    );
    assert.doesNotThrow(() => new DeltaDraft('slice', 'x').createNode(['Slice'], { name: 'ok' }));
  });
});
