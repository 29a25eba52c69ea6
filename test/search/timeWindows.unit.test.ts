import assert from 'node:assert/strict';
import { timeWindows } from '../../src/search/timeWindows.js';

const now = new Date('2026-12-06T10:00:00Z');
const read = (q: string) =>
  timeWindows(q, now).map((w) => [w.expression, w.from.toISOString().slice(0, 10), w.to.toISOString().slice(0, 10)]);

describe('time expressions of a question (pure)', () => {
  it('reads a day, a month and a year as windows of UTC time', () => {
    assert.deepEqual(read('Who did Maria have dinner with on May 3, 2023?'), [
      ['May 3, 2023', '2023-05-03', '2023-05-04'],
    ]);
    assert.deepEqual(read('What happened on 3 June, 2023?'), [['3 June, 2023', '2023-06-03', '2023-06-04']]);
    assert.deepEqual(read('on 2024-01-15'), [['2024-01-15', '2024-01-15', '2024-01-16']]);
    assert.deepEqual(read('What did Maria donate in December 2023?'), [['December 2023', '2023-12-01', '2024-01-01']]);
    assert.deepEqual(read('What did we ship in 2022?'), [['2022', '2022-01-01', '2023-01-01']]);
    assert.deepEqual(read('the summer of 2021'), [['summer of 2021', '2021-06-01', '2021-09-01']]);
  });

  it('anchors relative expressions at the time of the question', () => {
    assert.deepEqual(read('what did we decide last May?'), [['last May', '2026-05-01', '2026-06-01']]);
    assert.deepEqual(read('yesterday'), [['yesterday', '2026-12-05', '2026-12-06']]);
    assert.deepEqual(read('last week'), [['last week', '2026-11-23', '2026-11-30']]);
    assert.deepEqual(read('last month'), [['last month', '2026-11-01', '2026-12-01']]);
    assert.deepEqual(read('last Friday'), [['last Friday', '2026-12-04', '2026-12-05']]);
    assert.deepEqual(read('two weeks ago'), [['two weeks ago', '2026-11-19', '2026-11-27']]);
    // A month not yet reached this year is last year's.
    assert.deepEqual(read('in December'), [['in December', '2026-12-01', '2027-01-01']]);
    assert.deepEqual(read('last December'), [['last December', '2025-12-01', '2026-01-01']]);
  });

  it('reads a window before or after an anchor date', () => {
    assert.deepEqual(read('What did John do the week before August 3, 2023?'), [
      ['the week before August 3, 2023', '2023-07-27', '2023-08-03'],
    ]);
    assert.deepEqual(read('What did Maria do last weekend before April 10, 2023?'), [
      ['last weekend before April 10, 2023', '2023-04-03', '2023-04-10'],
    ]);
    assert.deepEqual(read('two days after 2024-03-01'), [['two days after 2024-03-01', '2024-03-02', '2024-03-04']]);
    assert.deepEqual(read('since 2024-01-15'), [['since 2024-01-15', '2024-01-15', '2026-12-06']]);
  });

  it('reads no time in identifiers, versions or plain numbers', () => {
    assert.deepEqual(read('ERR-4012 in v2.3.1'), []);
    assert.deepEqual(read('What is 2x the plan for 300 users?'), []);
    assert.deepEqual(read('Who may approve a refund?'), []);
  });
});
