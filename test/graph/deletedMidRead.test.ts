// Reads are read-committed: a node another transaction deletes while a statement streams its rows is either
// passed over (the statement reaches it after the deletion) or comes back as a null map (`n {.id, …}`), an
// empty one (`properties(n)`) or one with only the keys the projection names itself (`n {.*, embedding:
// null}`), never as an error. The window is microseconds inside one statement in production; here
// graph/nodes (which streams its rows in the (project_id, id) index's order) is pulled one row at a time
// (fetch size 1) and the deletion commits after the first row, so the later rows are read after it.
// Statements that project before an eager sort, or seek each node by id (memory search and recall), leave no
// window a test can hold open; their readers keep only present rows with the same isPresent.
import assert from 'node:assert/strict';
import neo4j, { type Driver } from 'neo4j-driver';
import { cypher } from '../../src/db/cypher.js';
import { isPresent, type GraphNodeRow } from '../../src/graph/views.js';
import { nodesPage } from '../../src/graph/service.js';
import { call, newTenant, type Tenant } from '../support/api.js';
import { useRawDriver } from '../support/harness.js';

/**
 * Runs a statement pulling one row at a time; once the first row is in, the memories but that one and those
 * in `keep` are deleted.
 */
async function readWhileDeleting(
  driver: Driver,
  t: Tenant,
  statement: string,
  params: Record<string, unknown>,
  keep: string[],
): Promise<Record<string, unknown>[]> {
  const session = driver.session({ defaultAccessMode: neo4j.session.READ, fetchSize: 1 });
  const rows: Record<string, unknown>[] = [];
  try {
    for await (const record of session.run(cypher(statement), params)) {
      if (rows.length === 0)
        await driver.executeQuery('MATCH (m:Memory {project_id: $p}) WHERE NOT m.id IN $keep DETACH DELETE m', {
          p: t.projectId,
          keep: [idOf(record.toObject()), ...keep],
        });
      rows.push(record.toObject());
    }
  } finally {
    await session.close();
  }
  return rows;
}

/** The id of a graph/nodes row's node. */
function idOf(row: Record<string, unknown>): unknown {
  return (row.props as { id?: unknown } | null)?.id;
}

/** Stores `count` memories; their ids in id order (graph/nodes' order). */
async function memories(t: Tenant, count: number): Promise<string[]> {
  const batch = Array.from({ length: count }, (_, i) => ({ content: `Alpha ledger entry ${i} of the quarter.` }));
  const r = await call('POST', '/v1/memories', { memories: batch }, { key: t.key });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return (r.body.memories as { id: string }[]).map((m) => m.id).sort();
}

describe('a node deleted while a read streams it', function () {
  this.timeout(60_000);
  const driver = useRawDriver();
  const now = () => new Date().toISOString();

  it('a graph node page leaves it out and still says there is more after the last node it shows', async () => {
    const t = await newTenant();
    const ids = await memories(t, 12);
    // The last six in id order stay, so nodes follow the deleted ones.
    const kept = ids.slice(6);
    const rows = (await readWhileDeleting(
      driver(),
      t,
      'graph/nodes',
      {
        project_id: t.projectId,
        labels: ['Knowledge', 'Memory'],
        property: null,
        value: null,
        include_pending: false,
        valid_at: now(),
        after_id: '',
        limit: 6,
      },
      kept,
    )) as unknown as GraphNodeRow[];
    assert.equal(rows.length, 6);
    // A row read after the deletion: no properties but the vectors the statement leaves out, no labels.
    for (const r of rows.filter((row) => !isPresent(row.props)))
      assert.deepEqual([r.props, r.labels], [{ embedding: null, context_embedding: null }, []]);
    const shown = rows.flatMap((r) => (isPresent(r.props) ? [r.props.id] : [])).slice(0, 5);
    // The first node, any the statement read ahead before the deletion, then kept ones, in id order.
    const first = shown[0]!;
    assert.equal(first, ids[0]);
    assert.deepEqual(
      shown,
      ids.filter((id) => shown.includes(id)),
    );
    const page = nodesPage(rows, 5);
    assert.deepEqual(
      page.items.map((n) => n.id),
      shown,
    );
    assert.equal(page.hasMore, true);
    assert.equal(page.last, shown[shown.length - 1]);
    const listed = await call('GET', '/v1/graph/nodes?label=Memory&limit=5', undefined, { key: t.key });
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.nodes.map((n: { id: string }) => n.id),
      [first, ...kept.slice(0, 4)],
    );
  });
});
