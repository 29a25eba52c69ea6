// A keyset page of list reads (src/http/cursor.ts): whether more follow is told by the rows read, and a row
// whose node was deleted while the page was read (null) is not shown, so the cursor is the last item shown.
import assert from 'node:assert/strict';
import { decodeCursor, keysetPage } from '../../src/http/cursor.js';

const keyOf = (x: { id: string }) => ({ i: x.id });

describe('a keyset page', () => {
  it('shows the first limit rows, says more follow when limit + 1 were read, and continues after the last', () => {
    const page = keysetPage([{ id: 'a' }, { id: 'b' }, { id: 'c' }], 2, keyOf);
    assert.deepEqual(page.items, [{ id: 'a' }, { id: 'b' }]);
    assert.equal(page.has_more, true);
    assert.deepEqual(decodeCursor(page.next_cursor!, { i: 'string' }), { i: 'b' });
  });

  it('leaves out a row deleted while it was read, still says more follow, and continues after the last shown', () => {
    const page = keysetPage([{ id: 'a' }, null, { id: 'c' }], 2, keyOf);
    assert.deepEqual(page.items, [{ id: 'a' }]);
    assert.equal(page.has_more, true);
    assert.deepEqual(decodeCursor(page.next_cursor!, { i: 'string' }), { i: 'a' });
    const last = keysetPage([{ id: 'a' }, null], 2, keyOf);
    assert.deepEqual([last.items, last.has_more, last.next_cursor], [[{ id: 'a' }], false, null]);
  });
});
