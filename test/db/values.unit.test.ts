// Timestamps read from Neo4j become ISO strings through a fast path of our own; it must give the
// same string as the driver's own conversion for every value it takes, and fall back for the rest.
import { strict as assert } from 'node:assert';
import neo4j from 'neo4j-driver';
import { isoDateTime } from '../../src/db/values.js';

describe('Neo4j timestamps as ISO strings', () => {
  const cases: [number, number, number, number, number, number, number, number | undefined, string | undefined][] = [
    [2026, 11, 23, 1, 2, 3, 456_789_000, 0, undefined],
    [1999, 12, 31, 23, 59, 59, 999_000_000, 0, undefined],
    [2026, 3, 1, 0, 0, 0, 0, 19_800, undefined],
    [2024, 2, 29, 23, 30, 0, 1, -36_000, undefined],
    [150, 1, 1, 0, 0, 0, 0, 0, undefined],
    [50, 6, 1, 12, 0, 0, 0, 0, undefined],
    [-1, 1, 1, 0, 0, 0, 0, 0, undefined],
    [2026, 6, 1, 12, 0, 0, 0, 7_200, 'Europe/Paris'],
  ];
  for (const [y, mo, d, h, mi, s, ns, offset, zone] of cases) {
    it(`gives the driver's own answer for ${y}-${mo}-${d}T${h}:${mi}:${s}.${ns} offset ${offset} ${zone ?? ''}`, () => {
      const value = new neo4j.types.DateTime(y, mo, d, h, mi, s, ns, offset, zone);
      assert.equal(isoDateTime(value), value.toStandardDate().toISOString());
    });
  }

  it('takes driver Integers (lossless mode) through the driver conversion', () => {
    const int = neo4j.int;
    const value = new neo4j.types.DateTime(int(2026), int(1), int(2), int(3), int(4), int(5), int(6_000_000), int(0));
    assert.equal(isoDateTime(value), '2026-01-02T03:04:05.006Z');
  });
});
