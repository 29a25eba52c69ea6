import assert from 'node:assert/strict';
import { newTenant } from '../support/api.js';
import { harness } from '../support/harness.js';
import { assertGovernedWrite, UUID } from '../support/assertions.js';

describe('POST /v1/memories', () => {
  it('creates and applies a memory with every field of the governed-write result', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/memories', {
      content: 'The team prefers dark mode for dashboards.',
      kind: 'preference',
      scope: 'project',
    });
    assert.equal(reply.status, 201);
    const b = reply.body;
    assertGovernedWrite(b, t.projectId, 'applied');
    assert.equal(b.shape_id, '5e1f0000-0000-4000-8000-000000000001');
    assert.equal(b.memories.length, 1);
    assert.deepEqual(Object.keys(b.memories[0]).sort(), ['content', 'delta_entity_id', 'id', 'name', 'status']);
    assert.equal(b.memories[0].id, b.id);
    assert.match(b.memories[0].delta_entity_id, UUID);
    assert.equal(b.memories[0].name, 'The team prefers dark mode for dashboards');
    assert.equal(b.memories[0].status, 'applied');
  });

  it('a read returns the memory node of docs/memories.md', async () => {
    const t = await newTenant(0);
    const created = await t.post('/v1/memories', {
      content: 'We decided to ship weekly.',
      kind: 'decision',
      source_context: 'retro',
    });
    const reply = await t.get(`/v1/memories/${created.body.id}`);
    assert.equal(reply.status, 200);
    const m = reply.body.memory;
    assert.equal(m.id, created.body.id);
    assert.equal(m.type, 'memory');
    assert.equal(m.plane, 'memory');
    assert.equal(m.project_id, t.projectId);
    assert.equal(m.name, 'We decided to ship weekly');
    assert.equal(m.properties.kind, 'decision');
    assert.equal(m.properties.content, 'We decided to ship weekly.');
    assert.equal(m.properties.memory_schema, 'gks.memory/v1');
    assert.match(m.properties.date_observed, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(m.properties.source_context, 'retro');
    assert.match(m.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(m.created_at, m.updated_at);
    assert.equal(m.recallable, true);
  });

  it('a staged memory is not readable until its delta is applied', async () => {
    const t = await newTenant(0);
    const staged = await t.post('/v1/memories', { content: 'Staged for review.', apply: false });
    assert.equal(staged.status, 201);
    assert.equal(staged.body.status, 'staged');
    assert.equal(staged.body.applied, false);
    assert.equal((await t.get(`/v1/memories/${staged.body.id}`)).status, 404);
    const applied = await t.post(`/v1/deltas/${staged.body.delta_id}/apply`, {});
    assert.equal(applied.status, 200);
    assert.equal(applied.body.delta.status, 'applied');
    assert.equal((await t.get(`/v1/memories/${staged.body.id}`)).status, 200);
  });

  it('the staged memory is a :Pending subgraph tied to its :Delta in Neo4j', async () => {
    const t = await newTenant(0);
    const staged = await t.post('/v1/memories', {
      content: 'Ada Lovelace wrote the first program.',
      subject: { name: 'Ada Lovelace', type: 'Person' },
      predicate: 'wrote',
      object: 'first program',
      apply: false,
    });
    const rows = await harness().service.deps.graph.read((tx) =>
      tx.runText(
        `MATCH (d:Delta {id: $id})-[:CREATED]->(n:Pending)
         RETURN [l IN labels(n) WHERE l <> 'Knowledge'] AS labels ORDER BY n.name`,
        { id: staged.body.delta_id },
      ),
    );
    const labels = rows.map((r) => (r.labels as string[]).sort().join(':'));
    assert.deepEqual(labels.sort(), ['Concept:Entity:Pending', 'Entity:Pending:Person', 'Memory:Pending']);
    const rels = await harness().service.deps.graph.read((tx) =>
      tx.runText(
        'MATCH (m:Memory {id: $id})-[r]->(e:Entity) RETURN type(r) AS type, r.pending AS pending, r.predicate AS predicate ORDER BY type',
        { id: staged.body.id },
      ),
    );
    assert.deepEqual(rels, [
      { type: 'HAS_OBJECT', pending: true, predicate: 'wrote' },
      { type: 'HAS_SUBJECT', pending: true, predicate: 'wrote' },
    ]);
  });

  it('subject and object resolve to existing entities by normalized name instead of duplicating them', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', { content: 'Ada likes tea.', subject: { name: 'Ada Lovelace', type: 'Person' } });
    await t.post('/v1/memories', { content: 'Ada likes maths.', subject: '  the ada  LOVELACE ' });
    const rows = await harness().service.deps.graph.read((tx) =>
      tx.runText(
        'MATCH (e:Entity {project_id: $p}) OPTIONAL MATCH (e)<-[:HAS_SUBJECT]-(m) RETURN e.name AS name, count(m) AS memories',
        { p: t.projectId },
      ),
    );
    assert.deepEqual(rows, [{ name: 'Ada Lovelace', memories: 2 }]);
  });

  it('a batch is one delta and creates every memory', async () => {
    const t = await newTenant(0);
    const memories = Array.from({ length: 100 }, (_, i) => ({ content: `Batch fact number ${i}.`, kind: 'fact' }));
    const reply = await t.post('/v1/memories', { memories });
    assert.equal(reply.status, 201);
    assert.equal(reply.body.id, null);
    assert.equal(reply.body.memories.length, 100);
    assert.equal(new Set(reply.body.memories.map((m: { id: string }) => m.id)).size, 100);
    const delta = await t.get(`/v1/deltas/${reply.body.delta_id}`);
    assert.equal(delta.body.delta.change_count, 100);
    assert.equal(delta.body.delta.changes.length, 100);
  });

  it('one bad item makes the whole batch a 400 naming its index and field, and writes nothing', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/memories', {
      memories: [{ content: 'good' }, { content: 'also good' }, { content: 'bad', kind: 'rumour' }],
    });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.code, 'invalid_request');
    assert.deepEqual(
      reply.body.error.details.fields.map((f: { field: string }) => f.field),
      ['/body/memories/2/kind'],
    );
    const deltas = await t.get('/v1/deltas');
    assert.equal(deltas.body.deltas.length, 0);
  });

  it('an unknown subject id inside a batch is a 400 naming the item and nothing is written', async () => {
    const t = await newTenant(0);
    const reply = await t.post('/v1/memories', {
      memories: [
        { content: 'fine', subject: 'Bob' },
        { content: 'broken', subject: { id: 'no-such-entity' } },
      ],
    });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.details.fields[0].field, '/body/memories/1/subject/id');
    const count = await harness().service.deps.graph.read((tx) =>
      tx.runText('MATCH (n:Knowledge {project_id: $p}) RETURN count(n) AS n', { p: t.projectId }),
    );
    assert.equal(count[0]?.n, 0);
  });

  for (const [name, body, field] of [
    ['missing content', {}, '/body/content'],
    ['empty content', { content: '' }, '/body/content'],
    ['an unknown kind', { content: 'x', kind: 'gossip' }, '/body/kind'],
    ['an unknown scope', { content: 'x', scope: 'world' }, '/body/scope'],
    ['a bad forget_after', { content: 'x', forget_after: 'tomorrow' }, '/body/forget_after'],
    ['apply not boolean', { content: 'x', apply: 'yes' }, '/body/apply'],
    ['an unknown field', { content: 'x', colour: 'red' }, '/body/colour'],
    ['both content and memories', { content: 'x', memories: [{ content: 'y' }] }, '/body/content'],
    ['an empty batch', { memories: [] }, '/body/memories'],
    ['a batch of 101', { memories: Array.from({ length: 101 }, () => ({ content: 'x' })) }, '/body/memories'],
    ['a subject of the wrong type', { content: 'x', subject: 42 }, '/body/subject'],
    ['an unknown shape', { content: 'x', shape_id: 'no-such-shape' }, '/body/shape_id'],
    ['a subject name with no letter or digit', { content: 'x', subject: { id: '', name: '»' } }, '/body/subject'],
    ['an object name that normalizes to nothing', { content: 'x', object: '— —' }, '/body/object'],
  ] as const) {
    it(`${name} is a 400 naming ${field}`, async () => {
      const t = await newTenant(0);
      const reply = await t.post('/v1/memories', body);
      assert.equal(reply.status, 400, JSON.stringify(reply.body));
      assert.ok(
        reply.body.error.details.fields.some((f: { field: string }) => f.field === field),
        JSON.stringify(reply.body.error),
      );
    });
  }
});
