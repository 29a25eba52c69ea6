// A keyset page of list reads (src/http/cursor.ts): whether more follow is told by the rows read, and a row
// whose node was deleted while the page was read (null) is not shown, so the cursor is the last item shown;
// whenever more follow there is a next cursor.
import assert from 'node:assert/strict';
import { decodeCursor, encodeCursor, FROM_START, keysetPage, readPage } from '../../src/http/cursor.js';

const keyOf = (x: { id: string }) => ({ i: x.id });
const start = encodeCursor(FROM_START.by_id);

describe('a keyset page', () => {
  it('shows the first limit rows, says more follow when limit + 1 were read, and continues after the last', () => {
    const page = keysetPage([{ id: 'a' }, { id: 'b' }, { id: 'c' }], 2, keyOf, start);
    assert.deepEqual(page.items, [{ id: 'a' }, { id: 'b' }]);
    assert.equal(page.has_more, true);
    assert.deepEqual(decodeCursor(page.next_cursor!, { i: 'string' }), { i: 'b' });
  });

  it('leaves out a row deleted while it was read, shows the row read after the page instead, and says more may follow', () => {
    const page = keysetPage([{ id: 'a' }, null, { id: 'c' }], 2, keyOf, start);
    assert.deepEqual(page.items, [{ id: 'a' }, { id: 'c' }]);
    assert.equal(page.has_more, true);
    assert.deepEqual(decodeCursor(page.next_cursor!, { i: 'string' }), { i: 'c' });
    const last = keysetPage([{ id: 'a' }, null], 2, keyOf, start);
    assert.deepEqual([last.items, last.has_more, last.next_cursor], [[{ id: 'a' }], false, null]);
  });

  it('gives a next cursor whenever more follow, even when every row shown was deleted while it was read', () => {
    const after = keysetPage([null, null, { id: 'c' }], 2, keyOf, start);
    assert.deepEqual([after.items, after.has_more], [[{ id: 'c' }], true]);
    assert.deepEqual(decodeCursor(after.next_cursor!, { i: 'string' }), { i: 'c' });
    const resume = encodeCursor({ i: 'z' });
    const none = keysetPage([null, null, null], 2, keyOf, resume);
    assert.deepEqual([none.items, none.has_more, none.next_cursor], [[], true, resume]);
  });

  it('reads a page again while every row it read was deleted while it was read, at most three times', async () => {
    const reads = [[null, null, null], [null, null, null], [{ id: 'd' }, null, null], [{ id: 'e' }]];
    let n = 0;
    const rows = await readPage(async () => reads[n++]!, 2);
    assert.deepEqual([rows, n], [[{ id: 'd' }, null, null], 3]);
    n = 0;
    const gone = [[null, null, null], [null, null, null], [null, null, null], [{ id: 'e' }]];
    assert.deepEqual(await readPage(async () => gone[n++]!, 2), [null, null, null]);
    assert.equal(n, 3);
    n = 0;
    const last = [[null, null], [{ id: 'e' }]];
    assert.deepEqual(await readPage(async () => last[n++]!, 2), [null, null]);
    assert.equal(n, 1, 'a last page whose rows were all deleted is not read again: nothing follows it');
  });
});
