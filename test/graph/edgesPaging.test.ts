// Pages of GET /v1/graph/edges: by source node id, then relationship id (docs/graph-reads.md), so that a page
// reads only as far as it shows (cypher/graph/edges.cypher); every edge comes exactly once across the pages,
// whatever their size, now and as known at a past moment.
import assert from 'node:assert/strict';
import { newTenant, type Tenant } from '../support/api.js';
import { buildGraph } from './fixtures.js';
import { DeltaDraft } from '../../src/deltas/draft.js';
import { writeGoverned } from '../../src/deltas/service.js';
import { harness, useRawDriver } from '../support/harness.js';
import { EDGE_WALK, readEdgePage } from '../../src/graph/edgeWalk.js';
import type { Tx } from '../../src/db/graph.js';
import { moment } from '../support/moments.js';

type Edge = { id: string; type: string; source: string; target: string };

const byKey = (a: Edge, b: Edge): number =>
  a.source < b.source ? -1 : a.source > b.source ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** Every page of a listing, following next_cursor; `sizes` gets each page's length. */
async function allPages(t: Tenant, query: string, limit: number, sizes: number[] = []): Promise<Edge[]> {
  const edges: Edge[] = [];
  let cursor = '';
  for (let n = 0; n < 50; n += 1) {
    const reply = await t.get(`/v1/graph/edges?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.ok(reply.body.edges.length <= limit);
    edges.push(...(reply.body.edges as Edge[]));
    sizes.push(reply.body.edges.length);
    if (!reply.body.has_more) return edges;
    cursor = reply.body.next_cursor as string;
  }
  return assert.fail(`${query}: more than 50 pages`);
}

/** Ada knows Grace, works for Acme and lives in London; Grace knows Ada and works for Acme; Acme is in London. */
async function team(t: Tenant) {
  return buildGraph(
    t,
    [
      { key: 'ada', label: 'Person', name: 'Ada Lovelace' },
      { key: 'grace', label: 'Person', name: 'Grace Hopper' },
      { key: 'acme', label: 'Organization', name: 'Acme Engines' },
      { key: 'london', label: 'Place', name: 'London' },
    ],
    [
      ['ada', 'WORKS_FOR', 'acme'],
      ['ada', 'LIVES_IN', 'london'],
      ['ada', 'KNOWS', 'grace'],
      ['grace', 'WORKS_FOR', 'acme'],
      ['grace', 'KNOWS', 'ada'],
      ['acme', 'LOCATED_IN', 'london'],
    ],
  );
}

describe('pages of graph edges', () => {
  const driver = useRawDriver();

  it('every edge of the project comes once, by source node then id, whatever the page size', async () => {
    const t = await newTenant(0);
    const { ids } = await team(t);
    const whole = (await t.get('/v1/graph/edges?limit=100')).body.edges as Edge[];
    assert.equal(whole.length, 6);
    assert.deepEqual(whole, [...whole].sort(byKey));
    const idsOf = (edges: Edge[]) => edges.map((e) => e.id);
    for (const limit of [1, 2, 4])
      assert.deepEqual(idsOf(await allPages(t, '', limit)), idsOf(whole), `limit ${limit}`);
    const around = (node: string) => whole.filter((e) => e.source === node || e.target === node);
    assert.deepEqual(idsOf(await allPages(t, `node_id=${ids.ada}`, 1)), idsOf(around(ids.ada!)));
    const into = whole.filter((e) => e.target === ids.acme);
    assert.deepEqual(idsOf(await allPages(t, `node_id=${ids.acme}&direction=in`, 1)), idsOf(into));
    const works = whole.filter((e) => e.type === 'WORKS_FOR');
    assert.deepEqual(idsOf(await allPages(t, 'type=WORKS_FOR', 1)), idsOf(works));
  });

  it('pages as known at a moment put back what was deleted since, in the same order', async () => {
    const t = await newTenant(0);
    const built = await team(t);
    const then = (await t.get('/v1/graph/edges?limit=100')).body.edges as Edge[];
    const knownAt = await moment();
    // Since then: Ada no longer knows Grace and Grace no longer works for Acme; London is near Acme.
    const draft = new DeltaDraft('test', 'since');
    for (const e of then.filter((x) => x.type === 'KNOWS' && x.source === built.ids.ada))
      draft.deleteRelationship(e.id, e.source);
    for (const e of then.filter((x) => x.type === 'WORKS_FOR' && x.source === built.ids.grace))
      draft.deleteRelationship(e.id, e.source);
    const actor = { projectId: t.projectId, organizationId: t.organizationId, keyId: t.keyId, requestId: 'since' };
    const outcome = await writeGoverned(harness().service.deps.graph, draft, actor, true);
    assert.equal(outcome.status, 'applied');
    await buildGraph(t, [], [['london', 'NEAR', 'acme']], true, built.ids);
    assert.equal((await t.get('/v1/graph/edges?limit=100')).body.edges.length, 5);

    const at = `known_at=${encodeURIComponent(knownAt)}`;
    for (const limit of [1, 2, 5])
      assert.deepEqual(
        (await allPages(t, at, limit)).map((e) => e.id),
        then.map((e) => e.id),
        `limit ${limit}`,
      );
  });

  // A page walks at most EDGE_WALK nodes (cypher/graph/edges.cypher): a project of many nodes without
  // relationships answers short pages that go on where the walk stopped, and loses no edge.
  it('a project of many nodes and few relationships answers short pages that go on where their walk stopped', async () => {
    const t = await newTenant(0);
    await team(t);
    const then = (await t.get('/v1/graph/edges?limit=100')).body.edges as Edge[];
    const knownAt = await moment();
    // Nodes without relationships, around and between the team's (random ids, in the team's id space).
    const filler = 2 * EDGE_WALK + 500;
    await driver().executeQuery(
      `UNWIND range(1, $filler) AS i
       CREATE (:Knowledge:Memory {id: randomUUID(), project_id: $project, content: 'filler ' + i,
                                  created_at: datetime()})`,
      { filler, project: t.projectId },
    );
    try {
      for (const limit of [2, 100]) {
        const sizes: number[] = [];
        assert.deepEqual(
          (await allPages(t, '', limit, sizes)).map((e) => e.id),
          then.map((e) => e.id),
          `limit ${limit}`,
        );
        // At least one page per walk: 10,500 nodes are walked in three.
        assert.ok(sizes.length >= 3, `limit ${limit}: pages of ${sizes.join(', ')}`);
      }
      // The first page is read by graph/edges, then again by graph/edges_walk (it came back short); the page after
      // the cut by graph/edges_walk alone. The statements run on the real database; only their names are noted.
      const ran: string[] = [];
      const noting = (tx: Tx): Tx =>
        new Proxy(tx, {
          get: (target, prop, receiver) =>
            prop === 'run'
              ? (name: string, params?: Record<string, unknown>) => (ran.push(name), target.run(name, params))
              : Reflect.get(target, prop, receiver),
        });
      const read = (after: { source: string; id: string }) =>
        harness().service.deps.graph.read((tx) =>
          readEdgePage(noting(tx), {
            project_id: t.projectId,
            types: null,
            include_pending: false,
            valid_at: new Date().toISOString(),
            after_source: after.source,
            after_id: after.id,
            limit: 101,
          }),
        );
      const first = await read({ source: '', id: '' });
      assert.deepEqual(ran.splice(0), ['graph/edges', 'graph/edges_walk']);
      assert.ok(first.cut !== null && first.cut.id === '');
      await read(first.cut);
      assert.deepEqual(ran, ['graph/edges_walk']);

      // As known at a moment: what was deleted since is put back in the walk that reaches its source.
      const draft = new DeltaDraft('test', 'since');
      for (const e of then.filter((x) => x.type === 'KNOWS')) draft.deleteRelationship(e.id, e.source);
      const actor = { projectId: t.projectId, organizationId: t.organizationId, keyId: t.keyId, requestId: 'since' };
      assert.equal((await writeGoverned(harness().service.deps.graph, draft, actor, true)).status, 'applied');
      const at = `known_at=${encodeURIComponent(knownAt)}`;
      assert.deepEqual(
        (await allPages(t, at, 100)).map((e) => e.id),
        then.map((e) => e.id),
      );
      assert.equal((await allPages(t, '', 100)).length, then.length - 2);
    } finally {
      await driver().executeQuery('MATCH (n:Memory {project_id: $project}) DETACH DELETE n', { project: t.projectId });
    }
  });

  it('a cursor that is not an edges cursor is a 400 naming /query/cursor', async () => {
    const t = await newTenant(0);
    await team(t);
    const nodesCursor = Buffer.from(JSON.stringify({ i: 'x' })).toString('base64url');
    const reply = await t.get(`/v1/graph/edges?cursor=${nodesCursor}`);
    assert.equal(reply.status, 400, JSON.stringify(reply.body));
    assert.equal(reply.body.error.details.fields[0].field, '/query/cursor');
  });
});
