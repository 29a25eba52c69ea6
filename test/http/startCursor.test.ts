// The cursor a list answers when every row a page read was deleted as it was read is the request's own cursor,
// or, on a first page, the list's cursor from the start (FROM_START, src/http/cursor.ts): asking with it must give
// the first page again, on every kind of order a list has (newest first, by name, by id).
import assert from 'node:assert/strict';
import { encodeCursor, FROM_START } from '../../src/http/cursor.js';
import { call, newTenant } from '../support/api.js';

describe('a list asked from its start cursor', function () {
  this.timeout(60_000);

  it('answers its first page, on lists newest first, by name and by id', async () => {
    const t = await newTenant();
    const as = { key: t.key };
    const wrote = await call(
      'POST',
      '/v1/memories',
      { memories: [1, 2, 3].map((i) => ({ content: `Note ${i}.` })) },
      as,
    );
    assert.equal(wrote.status, 201, JSON.stringify(wrote.body));
    for (const name of ['alpha', 'beta', 'gamma']) {
      const slice = await call('POST', '/v1/slices', { name }, as);
      assert.equal(slice.status, 201, JSON.stringify(slice.body));
    }
    for (const title of ['One', 'Two', 'Three']) {
      const doc = await call('POST', '/v1/documents', { title, content: `${title} is a document.` }, as);
      assert.equal(doc.status, 201, JSON.stringify(doc.body));
    }
    const lists: [string, string, Record<string, string | number>][] = [
      ['/v1/deltas?limit=2', 'deltas', FROM_START.newest],
      ['/v1/documents?limit=2', 'sources', FROM_START.newest],
      ['/v1/slices?limit=2', 'slices', FROM_START.by_name],
      ['/v1/graph/nodes?limit=2', 'nodes', FROM_START.by_id],
    ];
    for (const [path, key, start] of lists) {
      const first = await call('GET', path, undefined, as);
      const again = await call('GET', `${path}&cursor=${encodeCursor(start)}`, undefined, as);
      assert.equal(first.status, 200, `${path}: ${JSON.stringify(first.body)}`);
      assert.equal(again.status, 200, `${path}: ${JSON.stringify(again.body)}`);
      const ids = (body: Record<string, { id: string }[]>) => body[key]!.map((x) => x.id);
      assert.equal(ids(first.body).length, 2, path);
      assert.deepEqual(ids(again.body), ids(first.body), path);
      assert.deepEqual([again.body.has_more, again.body.next_cursor], [true, first.body.next_cursor], path);
    }
  });
});
