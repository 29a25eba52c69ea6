import assert from 'node:assert/strict';
import { call, newTenant, type Tenant } from '../support/api.js';
import { buildGraph } from '../graph/fixtures.js';

type Node = {
  id: string;
  type: string;
  label: string;
  name: string;
  properties: Record<string, unknown>;
  plane: string;
  score: number;
  created_at: string;
  updated_at: string;
};
type Edge = {
  type: string;
  source: string;
  target: string;
  source_label: string;
  target_label: string;
  target_name: string | null;
};

async function lovelaceProject(t: Tenant): Promise<{ memoryId: string; documentId: string; entityId: string }> {
  const memory = await t.post('/v1/memories', {
    content: 'Lovelace wrote the first published algorithm.',
    kind: 'fact',
  });
  const doc = await t.post('/v1/documents', {
    title: 'Engines',
    content: 'The Analytical Engine notes by Lovelace describe loops and variables.',
    tags: ['history'],
  });
  assert.equal(doc.status, 201, JSON.stringify(doc.body));
  const { ids } = await buildGraph(t, [
    { key: 'ada', label: 'Person', name: 'Ada Lovelace', props: { role: 'Analyst' } },
  ]);
  return { memoryId: memory.body.id, documentId: doc.body.id, entityId: ids.ada! };
}

describe('POST /v1/search', () => {
  it('a query that hits a memory, a chunk and an entity returns all three fused into one ranking', async () => {
    const t = await newTenant(0);
    const { memoryId, documentId, entityId } = await lovelaceProject(t);
    const reply = await t.post('/v1/search', { query: 'Lovelace', mode: 'lexical' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const b = reply.body;
    assert.equal(b.query, 'Lovelace');
    assert.equal(b.project_id, t.projectId);
    assert.deepEqual(b.planes, ['memory', 'document', 'entity']);
    assert.equal(b.count, 3);
    assert.match(b.request_id, /.+/);
    // Each plane's best hit has rank 1: 1 / (60 + 1).
    assert.deepEqual(
      b.nodes.map((n: Node) => n.score),
      [0.016393, 0.016393, 0.016393],
    );
    const byPlane = Object.fromEntries(b.nodes.map((n: Node) => [n.plane, n]));
    assert.deepEqual(Object.keys(byPlane).sort(), ['document', 'entity', 'memory']);
    const m = byPlane.memory as Node;
    assert.deepEqual(
      [m.id, m.type, m.label, m.name],
      [memoryId, 'memory', 'Memory', 'Lovelace wrote the first published algorithm'],
    );
    assert.equal(m.properties.content, 'Lovelace wrote the first published algorithm.');
    assert.equal(m.properties.kind, 'fact');
    const c = byPlane.document as Node;
    assert.deepEqual([c.type, c.label, c.name], ['chunk', 'Chunk', 'Engines #1']);
    assert.equal(c.properties.document_id, documentId);
    assert.equal(c.properties.document_title, 'Engines');
    assert.match(String(c.properties.text), /Lovelace describe loops/);
    const e = byPlane.entity as Node;
    assert.deepEqual([e.id, e.type, e.label, e.name], [entityId, 'entity', 'Person', 'Ada Lovelace']);
    assert.equal(e.properties.role, 'Analyst');
    for (const n of b.nodes as Node[]) {
      assert.deepEqual(Object.keys(n), [
        'id',
        'type',
        'label',
        'name',
        'properties',
        'plane',
        'score',
        'created_at',
        'updated_at',
        'match',
      ]);
      for (const hidden of ['project_id', 'tenant', 'delta_id', 'identity_key'])
        assert.equal(hidden in n.properties, false);
    }
    // Edges in the element shape of memory search: the chunk's document link.
    const hasChunk = (b.edges as Edge[]).find((x) => x.type === 'HAS_CHUNK');
    assert.ok(hasChunk);
    assert.deepEqual(
      [hasChunk.source, hasChunk.target, hasChunk.source_label, hasChunk.target_label],
      [documentId, c.id, 'Document', 'Chunk'],
    );
    assert.deepEqual(Object.keys(b.edges[0]).sort(), [
      'id',
      'properties',
      'source',
      'source_label',
      'source_name',
      'target',
      'target_label',
      'target_name',
      'type',
    ]);
  });

  it("ranks by reciprocal rank fusion: a plane's second hit comes after every plane's first", async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', { content: 'Zephyr zephyr zephyr is the release codename.' });
    await t.post('/v1/memories', { content: 'The zephyr build failed once.' });
    await buildGraph(t, [{ key: 'z', label: 'Product', name: 'Zephyr' }]);
    const reply = await t.post('/v1/search', { query: 'zephyr', planes: ['memory', 'entity'], mode: 'lexical' });
    assert.deepEqual(reply.body.planes, ['memory', 'entity']);
    assert.deepEqual(
      reply.body.nodes.map((n: Node) => [n.plane, n.score]),
      [
        ['memory', 0.016393],
        ['entity', 0.016393],
        ['memory', 0.016129],
      ],
    );
    assert.equal(reply.body.nodes[0].properties.content, 'Zephyr zephyr zephyr is the release codename.');
  });

  it('a result shows at most 25 relationships, those to the other results first; every other result shows all its own', async () => {
    const t = await newTenant(0);
    const fillers = Array.from({ length: 30 }, (_, i) => ({ key: `f${i}`, label: 'Person', name: `Filler ${i}` }));
    const { ids } = await buildGraph(
      t,
      [
        { key: 'hub', label: 'Organization', name: 'Quasar Works' },
        { key: 'alpha', label: 'Person', name: 'Quasar Alpha' },
        { key: 'beta', label: 'Person', name: 'Quasar Beta' },
        { key: 'gamma', label: 'Person', name: 'Quasar Gamma' },
        ...fillers,
      ],
      [
        // ADVISES sorts before EMPLOYS: only the results-first rule keeps the hub's edges to alpha and beta.
        ...fillers.map((f): [string, string, string] => ['hub', 'ADVISES', f.key]),
        ['hub', 'EMPLOYS', 'alpha'],
        ['hub', 'EMPLOYS', 'beta'],
        ['gamma', 'KNOWS', 'f0'],
        ['gamma', 'KNOWS', 'f1'],
      ],
    );
    const reply = await t.post('/v1/search', { query: 'quasar', planes: ['entity'], mode: 'lexical' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body.nodes.map((n: Node) => n.name).sort(), [
      'Quasar Alpha',
      'Quasar Beta',
      'Quasar Gamma',
      'Quasar Works',
    ]);
    const edges = reply.body.edges as (Edge & { id: string })[];
    const text = (e: Edge) => `${e.source}-${e.type}->${e.target}`;
    const ofHub = edges.filter((e) => e.source === ids.hub);
    assert.equal(ofHub.length, 25, 'the hub shows 25 of its 32');
    for (const to of ['alpha', 'beta']) assert.ok(ofHub.some((e) => e.type === 'EMPLOYS' && e.target === ids[to]));
    assert.equal(ofHub.filter((e) => e.type === 'ADVISES').length, 23);
    assert.deepEqual(
      edges.filter((e) => e.source === ids.gamma).map(text),
      [`${ids.gamma}-KNOWS->${ids.f0}`, `${ids.gamma}-KNOWS->${ids.f1}`].sort(),
    );
    assert.equal(edges.length, 27, "each edge once: the hub-alpha edge is both ends' own");
    assert.equal(new Set(edges.map((e) => e.id)).size, 27);
    const order = (e: Edge & { id: string }) => [e.type, e.source, e.target, e.id];
    const sorted = [...edges].sort((x, y) => {
      const [a, b] = [order(x), order(y)];
      const i = a.findIndex((v, k) => v !== b[k]);
      return i < 0 ? 0 : a[i]! < b[i]! ? -1 : 1;
    });
    assert.deepEqual(edges.map(text), sorted.map(text), 'by type, source, target, id');
  });

  it('filters per plane: memory kinds, document ids and tags, entity types', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', {
      memories: [
        { content: 'Orbit review is weekly.', kind: 'fact' },
        { content: 'Orbit review moved to Friday.', kind: 'decision' },
      ],
    });
    const first = await t.post('/v1/documents', {
      title: 'A',
      content: 'Orbit telemetry runbook.',
      tags: ['Ops Team'],
    });
    const second = await t.post('/v1/documents', { title: 'B', content: 'Orbit budget notes.', tags: ['finance'] });
    await buildGraph(t, [
      { key: 'p', label: 'Product', name: 'Orbit' },
      { key: 'e', label: 'Event', name: 'Orbit launch' },
    ]);
    const kinds = await t.post('/v1/search', {
      query: 'orbit',
      planes: ['memory'],
      filters: { memory: { kinds: ['decision'] } },
    });
    assert.deepEqual(
      kinds.body.nodes.map((n: Node) => n.properties.kind),
      ['decision'],
    );
    const docs = await t.post('/v1/search', {
      query: 'orbit',
      planes: ['document'],
      filters: { document: { document_ids: [second.body.id] } },
    });
    assert.deepEqual(
      docs.body.nodes.map((n: Node) => n.properties.document_id),
      [second.body.id],
    );
    const tagged = await t.post('/v1/search', {
      query: 'orbit',
      planes: ['document'],
      filters: { document: { tags: ['ops  team'] } },
    });
    assert.deepEqual(
      tagged.body.nodes.map((n: Node) => n.properties.document_id),
      [first.body.id],
    );
    const types = await t.post('/v1/search', {
      query: 'orbit',
      planes: ['entity'],
      filters: { entity: { types: ['Event'] } },
    });
    assert.deepEqual(
      types.body.nodes.map((n: Node) => n.name),
      ['Orbit launch'],
    );
    const all = await t.post('/v1/search', { query: 'orbit' });
    assert.equal(all.body.count, 6);
    const stray = await t.post('/v1/search', {
      query: 'orbit',
      planes: ['memory'],
      filters: { entity: { types: ['Event'] } },
    });
    assert.equal(stray.status, 400);
    assert.deepEqual(stray.body.error.details.fields, [
      { field: '/body/filters/entity', reason: 'applies only when planes includes entity' },
    ]);
    const bad = await t.post('/v1/search', {
      query: 'orbit',
      planes: ['web'],
      filters: { entity: { types: ['event'] } },
    });
    assert.equal(bad.status, 400);
    const fields = bad.body.error.details.fields.map((f: { field: string }) => f.field);
    assert.ok(fields.includes('/body/planes/0') && fields.includes('/body/filters/entity/types/0'), fields.join(', '));
  });

  it('limit defaults to 10 and may be at most 100; query is required', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', { memories: Array.from({ length: 12 }, (_, i) => ({ content: `Gadget memo ${i}` })) });
    await buildGraph(
      t,
      Array.from({ length: 12 }, (_, i) => ({ key: `g${i}`, label: 'Product', name: `Gadget ${i}` })),
    );
    assert.equal((await t.post('/v1/search', { query: 'gadget' })).body.count, 10);
    assert.equal((await t.post('/v1/search', { query: 'gadget', limit: 100 })).body.count, 24);
    const tooMany = await t.post('/v1/search', { query: 'gadget', limit: 101 });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.error.details.fields[0].field, '/body/limit');
    assert.equal((await t.post('/v1/search', {})).body.error.details.fields[0].field, '/body/query');
  });

  it('returns only committed, recallable results: staged and forgotten ones are not found', async () => {
    const t = await newTenant(0);
    await t.post('/v1/memories', { content: 'Nebula plan is staged.', apply: false });
    await t.post('/v1/memories', {
      content: 'Nebula door code.',
      forget_after: new Date(Date.now() + 4000).toISOString(),
    });
    const staged = await buildGraph(t, [{ key: 'n', label: 'Product', name: 'Nebula' }], [], false);
    assert.equal((await t.post('/v1/search', { query: 'nebula' })).body.count, 1);
    await new Promise((r) => setTimeout(r, 4200));
    assert.equal((await t.post('/v1/search', { query: 'nebula' })).body.count, 0);
    await t.post(`/v1/deltas/${staged.deltaId}/apply`, {});
    assert.deepEqual(
      (await t.post('/v1/search', { query: 'nebula' })).body.nodes.map((n: Node) => n.type),
      ['entity'],
    );
  });

  it('search text that looks like Lucene syntax cannot break the query', async () => {
    const t = await newTenant(0);
    await lovelaceProject(t);
    for (const query of [
      '(Lovelace',
      '"Lovelace',
      'AND OR NOT',
      'Love* ~2 ^3',
      'a/b:c\\',
      '+-&&||!{}[]',
      'tenant:x',
      'name:Lovelace',
    ]) {
      const reply = await t.post('/v1/search', { query });
      assert.equal(reply.status, 200, `${query}: ${JSON.stringify(reply.body)}`);
    }
    assert.equal((await t.post('/v1/search', { query: '(Lovelace' })).body.count, 3);
    assert.equal((await t.post('/v1/search', { query: '+-&&||' })).body.count, 0);
  });

  it("needs search:read, and projects never see each other's results", async () => {
    const a = await newTenant(0);
    const b = await newTenant(0);
    await lovelaceProject(a);
    await b.post('/v1/memories', { content: 'Lovelace biography is on the shelf.' });
    const found = await b.post('/v1/search', { query: 'Lovelace' });
    assert.deepEqual(
      found.body.nodes.map((n: Node) => n.properties.content),
      ['Lovelace biography is on the shelf.'],
    );
    assert.deepEqual(found.body.edges, []);
    const key = await a.keyWith({ scopes: ['memories:read'] });
    const refused = await call('POST', '/v1/search', { query: 'Lovelace' }, { key });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.details.missing_scope, 'search:read');
  });
});
