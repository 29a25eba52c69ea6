import assert from 'node:assert/strict';
import { call, newTenant, type Tenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { crmDefinition, GENERAL_SHAPE_ID, MEMORY_SHAPE_ID } from './fixtures.js';
import { assertGovernedWrite } from '../support/assertions.js';

const del = (t: Tenant, path: string) => call('DELETE', path, undefined, { key: t.key });

describe('shapes lifecycle', () => {
  it('creates a shape through one applied delta and reads back its full definition', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/shapes', { name: 'crm', ...crmDefinition() });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const b = created.body;
    assertGovernedWrite(b, t.projectId, 'applied');
    assert.equal(b.shape.id, b.id);
    assert.equal(b.shape.version, 1);
    assert.equal(b.shape.status, 'published');
    assert.equal(b.shape.schema_tag, 'crm/v1');

    const read = await t.get(`/v1/shapes/${b.id}`);
    assert.equal(read.status, 200);
    const s = read.body.shape;
    assert.deepEqual(s.entity_types, [
      {
        label: 'Customer',
        description: 'A buying organization',
        properties: [
          { name: 'name', type: 'string' },
          { name: 'tier', type: 'string', enum: ['gold', 'silver'] },
          { name: 'seats', type: 'integer' },
        ],
        required: ['name', 'tier'],
        identity: 'name',
      },
      {
        label: 'Deal',
        properties: [
          { name: 'name', type: 'string' },
          { name: 'amount', type: 'number' },
          { name: 'closes_on', type: 'date' },
        ],
        required: ['name'],
        identity: 'name',
      },
    ]);
    assert.deepEqual(s.relationship_types, [
      { type: 'BUYS', from: 'Customer', to: 'Deal', cardinality: 'one_to_many', patterns: ['buys', 'signed'] },
      { type: 'MENTIONS', from: 'Memory', to: 'Entity', cardinality: 'many_to_many', patterns: [] },
    ]);
    assert.deepEqual(s.orphans_allowed, ['Deal']);
    assert.equal(s.builtin, false);
    assert.equal(s.project_id, t.projectId);
    assert.equal(s.supersedes, null);
    assert.equal(s.superseded_by, null);

    // One delta of origin shape holds the Shape, 2 EntityTypes, 6 PropertyDefs and 2 RelationshipTypes.
    const delta = await t.get(`/v1/deltas/${b.delta_id}`);
    assert.equal(delta.body.delta.origin, 'shape');
    const ops = delta.body.delta.changes.map((c: { op: string; labels: string[] | null; type: string | null }) =>
      c.op === 'create_node' ? c.labels![0] : c.type,
    );
    const count = (x: string) => ops.filter((o: string) => o === x).length;
    assert.deepEqual(
      [
        count('Shape'),
        count('EntityType'),
        count('PropertyDef'),
        count('RelationshipType'),
        count('DEFINES'),
        count('HAS_PROPERTY'),
      ],
      [1, 2, 6, 2, 4, 6],
    );
  });

  it('a staged shape is invisible until its delta is applied', async () => {
    const t = await newTenant(0);
    const staged = await t.post('/v1/shapes', { name: 'crm', apply: false, ...crmDefinition() });
    assert.equal(staged.status, 201);
    assert.equal(staged.body.status, 'staged');
    assert.equal(staged.body.applied, false);
    assert.equal(staged.body.shape.entity_types.length, 2);
    assert.equal((await t.get(`/v1/shapes/${staged.body.id}`)).status, 404);
    assert.equal((await t.get('/v1/shapes?name=crm')).body.shapes.length, 0);
    // The name is held by the staged shape.
    const clash = await t.post('/v1/shapes', { name: 'crm', ...crmDefinition() });
    assert.equal(clash.status, 409);
    assert.equal(clash.body.error.details.delta_id, staged.body.delta_id);
    await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {});
    assert.equal((await t.get(`/v1/shapes/${staged.body.id}`)).status, 200);
  });

  it("lists built-in shapes and the project's committed shapes with cursor pages", async () => {
    const t = await newTenant(0);
    for (const name of ['alpha', 'beta', 'crm']) await t.post('/v1/shapes', { name, ...crmDefinition() });
    const all = await t.get('/v1/shapes');
    assert.equal(all.status, 200);
    assert.deepEqual(
      all.body.shapes.map((s: { name: string }) => s.name),
      ['alpha', 'beta', 'crm', 'general', 'memory'],
    );
    const general = all.body.shapes.find((s: { name: string }) => s.name === 'general');
    assert.equal(general.id, GENERAL_SHAPE_ID);
    assert.equal(general.builtin, true);
    assert.equal(general.project_id, null);
    assert.deepEqual(general.entity_type_labels, ['Person', 'Organization', 'Place', 'Product', 'Event', 'Concept']);
    assert.deepEqual(all.body.shapes.find((s: { name: string }) => s.name === 'crm').relationship_type_names, [
      'BUYS',
      'MENTIONS',
    ]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { shapes: { name: string }[]; next_cursor: string | null; has_more: boolean } } = await t.get(
        `/v1/shapes?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      assert.ok(page.body.shapes.length <= 2);
      seen.push(...page.body.shapes.map((s) => s.name));
      cursor = page.body.next_cursor;
      assert.equal(page.body.has_more, cursor !== null);
    } while (cursor);
    assert.deepEqual(seen, ['alpha', 'beta', 'crm', 'general', 'memory']);
    assert.equal((await t.get('/v1/shapes?cursor=nonsense')).status, 400);
  });

  it('a new version supersedes the old one, which stays readable', async () => {
    const t = await newTenant(0);
    const v1 = await t.post('/v1/shapes', { name: 'crm', ...crmDefinition() });
    const changed = crmDefinition({ orphans_allowed: [] });
    changed.entity_types[1]!.properties.push({ name: 'stage', type: 'string', enum: ['open', 'won', 'lost'] } as never);
    const v2 = await t.post(`/v1/shapes/${v1.body.id}/versions`, changed);
    assert.equal(v2.status, 201, JSON.stringify(v2.body));
    assert.equal(v2.body.status, 'applied');
    assert.notEqual(v2.body.id, v1.body.id);
    assert.equal(v2.body.shape.name, 'crm');
    assert.equal(v2.body.shape.version, 2);
    assert.equal(v2.body.shape.supersedes, v1.body.id);
    assert.equal(v2.body.shape.schema_tag, 'crm/v2');
    const old = await t.get(`/v1/shapes/${v1.body.id}`);
    assert.equal(old.status, 200);
    assert.equal(old.body.shape.version, 1);
    assert.equal(old.body.shape.superseded_by, v2.body.id);
    assert.deepEqual(old.body.shape.orphans_allowed, ['Deal']);
    assert.equal(old.body.shape.entity_types[1].properties.length, 3);
    assert.equal((await t.get(`/v1/shapes/${v2.body.id}`)).body.shape.entity_types[1].properties.length, 4);
    const versions = await t.get('/v1/shapes?name=crm');
    assert.deepEqual(
      versions.body.shapes.map((s: { version: number }) => s.version),
      [2, 1],
    );
    const latest = await t.get('/v1/shapes?latest=true&name=crm');
    assert.deepEqual(
      latest.body.shapes.map((s: { id: string }) => s.id),
      [v2.body.id],
    );
    // Only the latest version can be given a new version.
    const stale = await t.post(`/v1/shapes/${v1.body.id}/versions`, crmDefinition());
    assert.equal(stale.status, 409);
    assert.equal(stale.body.error.details.latest_version_id, v2.body.id);
  });

  it('a shape in use is never deleted: 409 names what uses it; retire is allowed', async () => {
    const t = await newTenant(0);
    const shape = await t.post('/v1/shapes', { name: 'crm', ...crmDefinition() });
    const id = shape.body.id;
    const memory = await t.post('/v1/memories', { content: 'Acme renewed.', shape_id: id });
    assert.equal(memory.status, 201);
    const refused = await del(t, `/v1/shapes/${id}`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'conflict');
    assert.deepEqual(refused.body.error.details.used_by, {
      node_count: 1,
      node_ids: [memory.body.id],
      staged_delta_ids: [],
    });
    assert.match(refused.body.error.message, /in use/);
    assert.equal((await t.get(`/v1/shapes/${id}`)).status, 200);

    const staged = await t.post('/v1/memories', { content: 'Beta churned.', shape_id: id, apply: false });
    const both = await del(t, `/v1/shapes/${id}`);
    assert.deepEqual(both.body.error.details.used_by.staged_delta_ids, [staged.body.delta_id]);

    const retired = await t.post(`/v1/shapes/${id}/retire`, {});
    assert.equal(retired.status, 200);
    assert.equal(retired.body.status, 'applied');
    assert.equal(retired.body.shape.status, 'retired');
    assert.equal((await t.get(`/v1/shapes/${id}`)).body.shape.status, 'retired');
    assert.equal((await t.post(`/v1/shapes/${id}/retire`, {})).status, 409);
  });

  it('a staged delta that USES_SHAPE a shape keeps it from being deleted', async () => {
    const t = await newTenant(0);
    const shape = await t.post('/v1/shapes', { name: 'crm', ...crmDefinition() });
    const staged = await t.post('/v1/memories', { content: 'Pending review.', apply: false });
    await harness().service.deps.graph.write((tx) =>
      tx.runText('MATCH (d:Delta {id: $d}), (s:Shape {id: $s}) CREATE (d)-[:USES_SHAPE]->(s)', {
        d: staged.body.delta_id,
        s: shape.body.id,
      }),
    );
    const refused = await del(t, `/v1/shapes/${shape.body.id}`);
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.body.error.details.used_by.staged_delta_ids, [staged.body.delta_id]);
    await t.post(`/v1/deltas/${staged.body.delta_id}/reject`, {});
    assert.equal((await del(t, `/v1/shapes/${shape.body.id}`)).status, 200);
  });

  it('an unused shape is deleted with its whole definition through one delta', async () => {
    const t = await newTenant(0);
    const shape = await t.post('/v1/shapes', { name: 'crm', ...crmDefinition() });
    const deleted = await del(t, `/v1/shapes/${shape.body.id}`);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal(deleted.body.status, 'applied');
    assert.equal(deleted.body.shape_id, shape.body.id);
    assert.equal((await t.get(`/v1/shapes/${shape.body.id}`)).status, 404);
    const delta = await t.get(`/v1/deltas/${deleted.body.delta_id}`);
    assert.equal(delta.body.delta.origin, 'shape');
    assert.equal(delta.body.delta.changes.filter((c: { op: string }) => c.op === 'delete_node').length, 11);
    assert.deepEqual((await t.get('/v1/graph/counts')).body.labels, []);
    // The name is free again.
    assert.equal((await t.post('/v1/shapes', { name: 'crm', ...crmDefinition() })).status, 201);
  });

  it('deleting with apply=false stages the deletion; the shape stays until it is applied', async () => {
    const t = await newTenant(0);
    const shape = await t.post('/v1/shapes', { name: 'crm', ...crmDefinition() });
    const staged = await call('DELETE', `/v1/shapes/${shape.body.id}?apply=false`, undefined, { key: t.key });
    assert.equal(staged.status, 200);
    assert.equal(staged.body.status, 'staged');
    assert.equal((await t.get(`/v1/shapes/${shape.body.id}`)).status, 200);
    await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {});
    assert.equal((await t.get(`/v1/shapes/${shape.body.id}`)).status, 404);
  });

  it('built-in shapes are readable but cannot be changed (403)', async () => {
    const t = await newTenant(0);
    const general = await t.get(`/v1/shapes/${GENERAL_SHAPE_ID}`);
    assert.equal(general.status, 200);
    assert.equal(general.body.shape.name, 'general');
    assert.equal(general.body.shape.builtin, true);
    const memory = await t.get(`/v1/shapes/${MEMORY_SHAPE_ID}`);
    assert.equal(memory.body.shape.entity_types[0].label, 'Memory');
    assert.equal(memory.body.shape.entity_types[0].identity, 'content');
    for (const reply of [
      await t.post(`/v1/shapes/${GENERAL_SHAPE_ID}/versions`, crmDefinition()),
      await t.post(`/v1/shapes/${MEMORY_SHAPE_ID}/retire`, {}),
      await del(t, `/v1/shapes/${GENERAL_SHAPE_ID}`),
    ]) {
      assert.equal(reply.status, 403);
      assert.equal(reply.body.error.code, 'forbidden');
      assert.equal(reply.body.error.details.builtin, true);
    }
    const named = await t.post('/v1/shapes', { name: 'general', ...crmDefinition() });
    assert.equal(named.status, 409);
    assert.equal(named.body.error.details.fields[0].field, '/body/name');
  });

  it('shapes need shapes:read to read and shapes:write to change', async () => {
    const t = await newTenant(0);
    const reader = await t.keyWith({ scopes: ['shapes:read'] });
    const none = await t.keyWith({ scopes: ['memories:read'] });
    assert.equal((await call('GET', '/v1/shapes', undefined, { key: reader })).status, 200);
    const write = await call('POST', '/v1/shapes', { name: 'crm', ...crmDefinition() }, { key: reader });
    assert.equal(write.status, 403);
    assert.equal(write.body.error.details.missing_scope, 'shapes:write');
    const read = await call('GET', '/v1/ontology', undefined, { key: none });
    assert.equal(read.body.error.details.missing_scope, 'shapes:read');
  });

  it("projects never see each other's shapes", async () => {
    const a = await newTenant(0);
    const b = await newTenant(0);
    const shape = await a.post('/v1/shapes', { name: 'crm', ...crmDefinition() });
    assert.equal((await b.get(`/v1/shapes/${shape.body.id}`)).status, 404);
    assert.equal((await b.post(`/v1/shapes/${shape.body.id}/versions`, crmDefinition())).status, 404);
    assert.equal((await del(b, `/v1/shapes/${shape.body.id}`)).status, 404);
    assert.deepEqual(
      (await b.get('/v1/shapes')).body.shapes.map((s: { name: string }) => s.name),
      ['general', 'memory'],
    );
    // The same name is free in another project.
    assert.equal((await b.post('/v1/shapes', { name: 'crm', ...crmDefinition() })).status, 201);
    assert.ok(
      !(await b.get('/v1/ontology')).body.entity_types.some((e: { shapes: { id: string }[] }) =>
        e.shapes.some((s) => s.id === shape.body.id),
      ),
    );
  });
});
