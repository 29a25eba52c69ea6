// A batch sends the properties its new nodes share once (splitSharedProps): only values equal for certain are
// shared, and each node keeps the rest as its own.
import assert from 'node:assert/strict';
import neo4j from 'neo4j-driver';
import { splitSharedProps, toNeoProps, dateValue } from '../../src/deltas/props.js';

describe('the properties a batch of new nodes shares', () => {
  it('sends once what every node has with the same value, and leaves each node the rest', () => {
    const rows = ['a', 'b', 'c'].map((name) =>
      toNeoProps({ name, kind: 'fact', tags: ['x', 'y'], date_observed: dateValue('2026-11-29'), tenant: 't1' }),
    );
    const { shared, own } = splitSharedProps(rows);
    assert.deepEqual(Object.keys(shared).sort(), ['date_observed', 'kind', 'tags', 'tenant']);
    assert.equal(String(shared.date_observed), '2026-11-29');
    assert.deepEqual(own, [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
  });

  it('shares no property one node lacks or holds with another value, type or list', () => {
    const rows = [
      toNeoProps({ kind: 'fact', score: 1, tags: ['x'], seen: dateValue('2026-11-29'), at: new Date(0), note: 'n' }),
      toNeoProps({ kind: 'fact', score: '1', tags: ['x', 'y'], seen: dateValue('2026-11-28'), at: new Date(1) }),
    ];
    const { shared, own } = splitSharedProps(rows);
    assert.deepEqual(shared, { kind: 'fact' });
    assert.deepEqual(
      own.map((r) => Object.keys(r).sort()),
      [
        ['at', 'note', 'score', 'seen', 'tags'],
        ['at', 'score', 'seen', 'tags'],
      ],
    );
  });

  it('does not share an object that only prints like a date, nor 0 with -0', () => {
    const date = new neo4j.types.Date(2026, 11, 29);
    const fake = { toString: () => '2026-11-29' };
    const { shared } = splitSharedProps([
      { d: date, z: 0 },
      { d: fake, z: -0 },
    ]);
    assert.deepEqual(shared, {});
  });

  it('shares a date or date-time equal field by field, not one of another kind or time zone', () => {
    const at = new Date('2026-11-29T10:00:00.000Z');
    const shared = (a: unknown, b: unknown) => 'v' in splitSharedProps([{ v: a }, { v: b }]).shared;
    assert.ok(shared(new neo4j.types.Date(2026, 11, 29), new neo4j.types.Date(2026, 11, 29)));
    assert.ok(shared(neo4j.types.DateTime.fromStandardDate(at), neo4j.types.DateTime.fromStandardDate(new Date(at))));
    assert.ok(!shared(new neo4j.types.Date(2026, 11, 29), new neo4j.types.Date(2026, 11, 30)));
    assert.ok(!shared(new neo4j.types.Date(2026, 11, 29), new neo4j.types.LocalDateTime(2026, 11, 29, 0, 0, 0, 0)));
    const utc = new neo4j.types.DateTime(2026, 11, 29, 10, 0, 0, 0, 0);
    const paris = new neo4j.types.DateTime(2026, 11, 29, 10, 0, 0, 0, 3600);
    assert.ok(!shared(utc, paris), 'the same wall time in another zone is another instant');
  });

  it('keeps a single node whole, and an empty batch empty', () => {
    assert.deepEqual(splitSharedProps([{ kind: 'fact' }]), { shared: {}, own: [{ kind: 'fact' }] });
    assert.deepEqual(splitSharedProps([]), { shared: {}, own: [] });
  });
});
