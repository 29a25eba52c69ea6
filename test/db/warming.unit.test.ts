import assert from 'node:assert/strict';
import neo4j from 'neo4j-driver';
import { LastRuns, paramShape } from '../../src/db/warming.js';

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
    assert.deepEqual(runs.warming('memories/get').params, { id: 'm-1' });
    assert.equal(runs.warming('memories/get').read, true);
    runs.note('memories/get', { id: 'm-22' }, true, 1_000);
    assert.deepEqual(runs.warming('memories/get').params, { id: 'm-22' }, 'every read replaces it');

    runs.note('deltas/create', { delta_id: 'd-1' }, false, 1_000);
    runs.note('deltas/create', { delta_id: 'd-22' }, false, 1_000);
    const write = runs.warming('deltas/create');
    assert.equal(write.read, false);
    assert.match(write.text, /^EXPLAIN /);
    assert.deepEqual(write.params, { delta_id: 'xxx' }, 'a second write within the second is not shaped again');
    assert.deepEqual(runs.warming('auth/key_standing').params, {}, 'a statement never run here is planned with none');
  });
});
