import assert from 'node:assert/strict';
import { call, newTenant } from '../support/api.js';
import { acmeGraph, buildGraph } from './fixtures.js';

type Node = {
  id: string;
  labels: string[];
  name: string;
  properties: Record<string, unknown>;
  pending: boolean;
  delta_id?: string;
  distance?: number;
};
type Edge = {
  id: string;
  type: string;
  source: string;
  target: string;
  source_label: string;
  target_name: string;
  properties: Record<string, unknown>;
  pending: boolean;
  delta_id?: string;
};
const names = (nodes: Node[]) => nodes.map((n) => n.name).sort();

describe('graph reads', () => {
  it('every graph read is refused without graph:read, naming the scope', async () => {
    const t = await newTenant(0);
    const { ids } = await acmeGraph(t);
    const key = await t.keyWith({ scopes: ['memories:read', 'search:read', 'shapes:read'] });
    for (const path of ['/v1/graph/nodes', `/v1/graph/nodes/${ids.ada}`, '/v1/graph/edges', '/v1/graph/counts']) {
      const reply = await call('GET', path, undefined, { key });
      assert.equal(reply.status, 403, path);
      assert.equal(reply.body.error.code, 'forbidden');
      assert.equal(reply.body.error.details.missing_scope, 'graph:read');
    }
    const allowed = await t.keyWith({ scopes: ['graph:read'] });
    assert.equal((await call('GET', '/v1/graph/counts', undefined, { key: allowed })).status, 200);
  });

  it('lists nodes by label and by one property value, without engine labels or properties', async () => {
    const t = await newTenant(0);
    await acmeGraph(t);
    const people = await t.get('/v1/graph/nodes?label=Person');
    assert.equal(people.status, 200);
    assert.equal(people.body.project_id, t.projectId);
    assert.deepEqual(names(people.body.nodes), ['Ada Lovelace', 'Charles Babbage', 'Grace Hopper']);
    const ada = people.body.nodes.find((n: Node) => n.name === 'Ada Lovelace');
    assert.deepEqual(ada.labels.sort(), ['Entity', 'Person']);
    assert.equal(ada.pending, false);
    assert.equal(ada.properties.role, 'Analyst');
    for (const hidden of ['project_id', 'tenant', 'delta_id', 'identity_key', 'pending_identity_key', 'id', 'name'])
      assert.equal(hidden in ada.properties, false, hidden);
    assert.deepEqual(names((await t.get('/v1/graph/nodes?label=Person&property=role&value=Admiral')).body.nodes), [
      'Grace Hopper',
    ]);
    assert.deepEqual(names((await t.get('/v1/graph/nodes?property=founded_year&value=1842')).body.nodes), [
      'Acme Engines',
    ]);
    assert.deepEqual(names((await t.get('/v1/graph/nodes?property=tags&value=poetry')).body.nodes), ['Ada Lovelace']);
    assert.deepEqual(names((await t.get('/v1/graph/nodes?label=Entity')).body.nodes).length, 5);
    assert.deepEqual((await t.get('/v1/graph/nodes?label=Spaceship')).body.nodes, []);
  });

  it('pages nodes with a cursor', async () => {
    const t = await newTenant(0);
    await acmeGraph(t);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const reply: { body: { nodes: Node[]; next_cursor: string | null; has_more: boolean } } = await t.get(
        `/v1/graph/nodes?label=Entity&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...reply.body.nodes.map((n) => n.id));
      cursor = reply.body.next_cursor;
      assert.equal(reply.body.has_more, cursor !== null);
      pages += 1;
    } while (cursor);
    assert.equal(pages, 3);
    assert.equal(new Set(seen).size, 5);
    assert.deepEqual(seen, [...seen].sort());
  });

  it('refuses labels, types and properties that are malformed or internal, naming the field', async () => {
    const t = await newTenant(0);
    const cases: [string, string][] = [
      ['/v1/graph/nodes?label=person', '/query/label'],
      ['/v1/graph/nodes?label=Person)%20DETACH%20DELETE%20n', '/query/label'],
      ['/v1/graph/nodes?label=Knowledge', '/query/label'],
      ['/v1/graph/nodes?label=Pending', '/query/label'],
      ['/v1/graph/nodes?property=tenant&value=x', '/query/property'],
      ['/v1/graph/nodes?property=role', '/query/value'],
      ['/v1/graph/nodes?value=x', '/query/property'],
      ['/v1/graph/edges?type=works-for', '/query/type'],
      ['/v1/graph/edges?direction=out', '/query/direction'],
      ['/v1/graph/nodes/x?depth=3', '/query/depth'],
    ];
    for (const [path, field] of cases) {
      const reply = await t.get(path);
      assert.equal(reply.status, 400, path);
      assert.deepEqual(
        reply.body.error.details.fields.map((f: { field: string }) => f.field),
        [field],
        path,
      );
    }
  });

  it('a node reads with its neighbourhood to depth 1 or 2, with the edges among them', async () => {
    const t = await newTenant(0);
    const { ids } = await acmeGraph(t);
    const one = await t.get(`/v1/graph/nodes/${ids.ada}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.node.name, 'Ada Lovelace');
    assert.equal(one.body.depth, 1);
    assert.deepEqual(
      one.body.nodes.map((n: Node) => [n.name, n.distance]),
      [['Acme Engines', 1]],
    );
    assert.deepEqual(
      one.body.edges.map((e: Edge) => e.type),
      ['WORKS_FOR'],
    );
    assert.equal(one.body.truncated, false);

    const two = await t.get(`/v1/graph/nodes/${ids.ada}?depth=2`);
    assert.deepEqual(two.body.nodes.map((n: Node) => [n.name, n.distance]).sort(), [
      ['Acme Engines', 1],
      ['Grace Hopper', 2],
      ['London', 2],
    ]);
    assert.deepEqual(two.body.edges.map((e: Edge) => `${e.source_label}-${e.type}->${e.target_name}`).sort(), [
      'Organization-LOCATED_IN->London',
      'Person-WORKS_FOR->Acme Engines',
      'Person-WORKS_FOR->Acme Engines',
    ]);
    const edge = two.body.edges[0] as Edge;
    assert.deepEqual(Object.keys(edge).sort(), [
      'id',
      'pending',
      'properties',
      'source',
      'source_label',
      'source_name',
      'target',
      'target_label',
      'target_name',
      'type',
    ]);
    assert.equal(edge.properties.since, 2020);
    assert.equal('project_id' in edge.properties, false);
    assert.equal('delta_id' in edge.properties, false);

    const cut = await t.get(`/v1/graph/nodes/${ids.ada}?depth=2&limit=2`);
    assert.equal(cut.body.nodes.length, 2);
    assert.equal(cut.body.nodes[0].name, 'Acme Engines');
    assert.equal(cut.body.truncated, true);

    const alone = await t.get(`/v1/graph/nodes/${ids.babbage}?depth=2`);
    assert.deepEqual([alone.body.nodes, alone.body.edges], [[], []]);
    assert.equal((await t.get('/v1/graph/nodes/no-such-node')).status, 404);
  });

  it('lists edges by node and direction, by type, with a cursor', async () => {
    const t = await newTenant(0);
    const { ids } = await acmeGraph(t);
    const acme = await t.get(`/v1/graph/edges?node_id=${ids.acme}`);
    assert.deepEqual(acme.body.edges.map((e: Edge) => e.type).sort(), ['LOCATED_IN', 'WORKS_FOR', 'WORKS_FOR']);
    const incoming = await t.get(`/v1/graph/edges?node_id=${ids.acme}&direction=in`);
    assert.deepEqual(
      incoming.body.edges.map((e: Edge) => e.type),
      ['WORKS_FOR', 'WORKS_FOR'],
    );
    assert.ok(incoming.body.edges.every((e: Edge) => e.target === ids.acme));
    const out = await t.get(`/v1/graph/edges?node_id=${ids.acme}&direction=out&type=LOCATED_IN`);
    assert.deepEqual(
      out.body.edges.map((e: Edge) => e.target_name),
      ['London'],
    );
    const works = await t.get('/v1/graph/edges?type=WORKS_FOR&limit=1');
    assert.equal(works.body.edges.length, 1);
    assert.equal(works.body.has_more, true);
    const rest = await t.get(`/v1/graph/edges?type=WORKS_FOR&limit=1&cursor=${works.body.next_cursor}`);
    assert.equal(rest.body.edges.length, 1);
    assert.equal(rest.body.has_more, false);
    assert.notEqual(rest.body.edges[0].id, works.body.edges[0].id);
    assert.equal((await t.get('/v1/graph/edges')).body.edges.length, 3);
  });

  it('counts nodes per label and relationships per type', async () => {
    const t = await newTenant(0);
    await acmeGraph(t);
    const counts = await t.get('/v1/graph/counts');
    assert.equal(counts.status, 200);
    assert.equal(counts.body.node_count, 5);
    assert.equal(counts.body.relationship_count, 3);
    assert.deepEqual(counts.body.labels, [
      { label: 'Entity', count: 5 },
      { label: 'Person', count: 3 },
      { label: 'Organization', count: 1 },
      { label: 'Place', count: 1 },
    ]);
    assert.deepEqual(counts.body.relationship_types, [
      { type: 'WORKS_FOR', count: 2 },
      { type: 'LOCATED_IN', count: 1 },
    ]);
  });

  it('pending work shows only with include_pending=true, marked pending with its delta', async () => {
    const t = await newTenant(0);
    const { ids } = await acmeGraph(t);
    const staged = await buildGraph(
      t,
      [{ key: 'alan', label: 'Person', name: 'Alan Turing' }],
      [['alan', 'WORKS_FOR', 'acme']],
      false,
      ids,
    );
    assert.deepEqual(names((await t.get('/v1/graph/nodes?label=Person')).body.nodes), [
      'Ada Lovelace',
      'Charles Babbage',
      'Grace Hopper',
    ]);
    const withPending = await t.get('/v1/graph/nodes?label=Person&include_pending=true');
    const alan = withPending.body.nodes.find((n: Node) => n.name === 'Alan Turing');
    assert.equal(alan.pending, true);
    assert.equal(alan.delta_id, staged.deltaId);
    assert.deepEqual(alan.labels.sort(), ['Entity', 'Person']);
    assert.equal((await t.get(`/v1/graph/nodes/${staged.ids.alan}`)).status, 404);
    const around = await t.get(`/v1/graph/nodes/${ids.acme}?include_pending=true`);
    assert.ok(around.body.nodes.some((n: Node) => n.name === 'Alan Turing' && n.pending));
    const pendingEdge = around.body.edges.find((e: Edge) => e.source === staged.ids.alan);
    assert.equal(pendingEdge.pending, true);
    assert.equal(pendingEdge.delta_id, staged.deltaId);
    assert.equal(
      (await t.get(`/v1/graph/nodes/${ids.acme}`)).body.nodes.some((n: Node) => n.name === 'Alan Turing'),
      false,
    );
    assert.equal((await t.get(`/v1/graph/edges?node_id=${ids.acme}`)).body.edges.length, 3);
    assert.equal((await t.get(`/v1/graph/edges?node_id=${ids.acme}&include_pending=true`)).body.edges.length, 4);
    assert.equal((await t.get('/v1/graph/counts')).body.node_count, 5);
    const counts = await t.get('/v1/graph/counts?include_pending=true');
    assert.equal(counts.body.node_count, 6);
    assert.deepEqual(counts.body.relationship_types[0], { type: 'WORKS_FOR', count: 3 });
    // Once applied it is ordinary committed data.
    await t.post(`/v1/deltas/${staged.deltaId}/apply`, {});
    const applied = await t.get(`/v1/graph/nodes/${staged.ids.alan}`);
    assert.equal(applied.body.node.pending, false);
    assert.equal('delta_id' in applied.body.node, false);
  });

  it("projects never see each other's nodes, edges or counts", async () => {
    const a = await newTenant(0);
    const b = await newTenant(0);
    const { ids } = await acmeGraph(a);
    await buildGraph(b, [{ key: 'x', label: 'Person', name: 'Someone Else' }]);
    assert.deepEqual(names((await b.get('/v1/graph/nodes?label=Person&include_pending=true')).body.nodes), [
      'Someone Else',
    ]);
    assert.equal((await b.get(`/v1/graph/nodes/${ids.ada}`)).status, 404);
    assert.deepEqual((await b.get(`/v1/graph/edges?node_id=${ids.acme}`)).body.edges, []);
    assert.deepEqual((await b.get('/v1/graph/edges?type=WORKS_FOR')).body.edges, []);
    const counts = await b.get('/v1/graph/counts');
    assert.equal(counts.body.node_count, 1);
    assert.deepEqual(counts.body.relationship_types, []);
    const foreign = await a.keyWith({ organization: true });
    assert.equal(
      (await call('GET', `/v1/graph/counts?project_id=${b.projectId}`, undefined, { key: foreign })).status,
      404,
    );
  });
});
