import assert from 'node:assert/strict';
import neo4j from 'neo4j-driver';
import { LastRuns, paramShape, sizeClass } from '../../src/db/warming.js';

describe('what a restarted engine is warmed with', () => {
  it("a write's parameter shape has its types and sizes (the plan cache's key) and none of its values", () => {
    const day = new neo4j.types.Date(2026, 11, 29);
    const shape = paramShape({
      id: 'secret-value',
      rows: [
        { token: 'abc', n: 3 },
        { token: 'de', n: 4 },
      ],
      empty: [],
      flag: true,
      none: null,
      day,
    });
    assert.deepEqual(shape, {
      id: 'xxxxxxxxxxxx',
      rows: [
        { token: 'xxx', n: 3 },
        { token: 'xx', n: 4 },
      ],
      empty: [],
      flag: true,
      none: null,
      day,
    });
  });

  it('a read is run again with its parameters; a write is planned with the shape of its first run in a second', () => {
    const runs = new LastRuns();
    runs.note('memories/get', { id: 'm-1' }, true, 1_000);
    assert.deepEqual(runs.warmings('memories/get')[0]!.params, { id: 'm-1' });
    assert.equal(runs.warmings('memories/get')[0]!.read, true);
    runs.note('memories/get', { id: 'm-22' }, true, 1_000);
    assert.deepEqual(runs.warmings('memories/get')[0]!.params, { id: 'm-22' }, 'every read replaces it');

    runs.note('deltas/create', { delta_id: 'd-1' }, false, 1_000);
    runs.note('deltas/create', { delta_id: 'd-22' }, false, 1_000);
    const write = runs.warmings('deltas/create')[0]!;
    assert.equal(write.read, false);
    assert.match(write.text, /^EXPLAIN /);
    assert.deepEqual(write.params, { delta_id: 'xxx' }, 'a second write within the second is not shaped again');
    assert.deepEqual(
      runs.warmings('auth/key_standing')[0]!.params,
      {},
      'a statement never run here is planned with none',
    );
  });
});

describe('a rehearsed write (run, then rolled back)', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const day = new neo4j.types.Date(2026, 11, 29);
  const lastWrite = () => ({
    project_id: 'p-real',
    now: '2026-11-29T10:00:00.000Z',
    delta_id: 'd-real',
    summary: 'what was written',
    shared: { date_observed: day, tenant: 'tenant-token' },
    nodes: [
      { id: 'n-1', change_id: 'c-1', labels: ['Entity'], identity_key: 'person:ada', props: { name: 'Ada' } },
      { id: 'n-2', change_id: 'c-2', props: { name: 'Bob' } },
    ],
  });

  it('keeps the values it names, gives the ids it names new UUIDs, and the rest only their shape', () => {
    const runs = new LastRuns();
    runs.rehearse('deltas/create', {
      keep: ['project_id', 'now', 'nodes.*.labels'],
      fresh: ['delta_id', 'nodes.*.id', 'nodes.*.change_id', 'nodes.*.identity_key'],
    });
    runs.note('deltas/create', lastWrite(), false, 1_000);
    const w = runs.warmings('deltas/create')[0]!;
    assert.equal(w.rollback, true, 'run in a transaction rolled back');
    assert.equal(w.read, false);
    assert.doesNotMatch(w.text, /^EXPLAIN/, 'run, not only planned');
    const p = w.params as ReturnType<typeof lastWrite>;
    assert.equal(p.project_id, 'p-real');
    assert.equal(p.now, '2026-11-29T10:00:00.000Z');
    assert.deepEqual(p.nodes[0]!.labels, ['Entity']);
    assert.equal('labels' in p.nodes[1]!, false, 'a value the run did not have is not made up');
    for (const id of [p.delta_id, p.nodes[0]!.id, p.nodes[1]!.id, p.nodes[0]!.change_id, p.nodes[0]!.identity_key])
      assert.match(id, UUID);
    assert.equal(new Set([p.nodes[0]!.id, p.nodes[1]!.id]).size, 2, 'a new id each');
    assert.equal(p.summary, 'x'.repeat('what was written'.length), 'what it wrote is not kept');
    assert.equal(p.nodes[1]!.props.name, 'xxx');
    assert.equal(p.shared.date_observed, day, 'a temporal value stays the same object (its type is the plan key)');

    const again = runs.warmings('deltas/create')[0]!.params as ReturnType<typeof lastWrite>;
    assert.notEqual(again.delta_id, p.delta_id, 'each rehearsal has new ids');
    assert.equal(again.summary, p.summary, 'the shape noted is not changed by a rehearsal');
  });

  it('is only planned until it has run in this process, and a write not declared stays only planned', () => {
    const runs = new LastRuns();
    runs.rehearse('deltas/create', { keep: ['project_id'], fresh: ['delta_id'] });
    assert.equal(runs.warmings('deltas/create')[0]!.rollback, false);
    assert.match(runs.warmings('deltas/create')[0]!.text, /^EXPLAIN /);
    runs.note('deltas/stage_nodes', lastWrite(), false, 1_000);
    const other = runs.warmings('deltas/stage_nodes')[0]!;
    assert.equal(other.rollback, false);
    assert.equal((other.params as { project_id: string }).project_id, 'xxxxxx');
  });
});

describe('the size classes of a write (Neo4j plans each apart)', () => {
  it('are the order of magnitude of each string and list parameter: 1 | 2-10 | 11-100 ...', () => {
    const rows = (n: number) => Array.from({ length: n }, () => ({}));
    assert.equal(sizeClass({ nodes: rows(2) }), sizeClass({ nodes: rows(9) }), '2 and 9 rows share a plan');
    assert.notEqual(sizeClass({ nodes: rows(1) }), sizeClass({ nodes: rows(2) }), 'a single row does not');
    assert.notEqual(sizeClass({ nodes: rows(10) }), sizeClass({ nodes: rows(20) }));
    assert.equal(sizeClass({ s: 'x'.repeat(5) }), sizeClass({ s: 'x'.repeat(10) }));
    assert.notEqual(sizeClass({ s: 'x'.repeat(10) }), sizeClass({ s: 'x'.repeat(40) }));
    assert.equal(sizeClass({ n: 1, b: true, m: { a: 'long value' } }), '', 'only strings and lists count');
  });

  it('are each kept and warmed, the most recent first, up to three; each is shaped at most once a second', () => {
    const runs = new LastRuns();
    const write = (n: number) => ({ nodes: Array.from({ length: n }, (_, i) => ({ id: `n-${i}` })) });
    runs.note('deltas/create', write(2), false, 1_000);
    runs.note('deltas/create', write(1), false, 1_100);
    const sizes = () => runs.warmings('deltas/create').map((w) => (w.params.nodes as unknown[]).length);
    assert.deepEqual(sizes(), [1, 2], 'a single write after a batch: both, the single first');
    runs.note('deltas/create', write(3), false, 1_200);
    assert.deepEqual(sizes(), [1, 2], 'a batch of the same class within the second is not shaped again');
    runs.note('deltas/create', write(3), false, 2_300);
    assert.deepEqual(sizes(), [3, 1], 'after the second it is, and its class moves first');
    runs.note('deltas/create', write(20), false, 2_400);
    runs.note('deltas/create', write(200), false, 2_500);
    assert.deepEqual(sizes(), [200, 20, 3], 'three classes at most: the oldest goes');
    for (const w of runs.warmings('deltas/create')) assert.match(w.text, /^EXPLAIN /, 'each only planned here');
  });
});
