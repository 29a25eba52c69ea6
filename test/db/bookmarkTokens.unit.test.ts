import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { ApiError } from '../../src/errors/catalogue.js';
import { BOOKMARK_TOKEN_PATTERN, BookmarkTokens, MAX_BOOKMARKS } from '../../src/db/bookmarks.js';

const refusedField = (f: () => unknown) =>
  assert.throws(
    f,
    (e: unknown) => e instanceof ApiError && e.details.fields?.[0]?.field === '/headers/x-graph-bookmark',
  );

describe('X-Graph-Bookmark tokens', () => {
  const bookmarks = ['FB:kcwQdykywhieRA6Q2JE3qBZsdskAuZA=', 'FB:kcwQdykywhieRA6Q2JE3qBZsdskAupA='];

  it('a token answers the bookmarks it was made of, and only under the key that signed it', () => {
    const key = crypto.randomBytes(32);
    const tokens = new BookmarkTokens(key);
    const token = tokens.issue(bookmarks);
    assert.match(token, new RegExp(BOOKMARK_TOKEN_PATTERN));
    assert.deepEqual(new BookmarkTokens(Buffer.from(key)).read(token), bookmarks, 'another process, the same key');
    refusedField(() => new BookmarkTokens(crypto.randomBytes(32)).read(token));
    refusedField(() => tokens.read(token.replace(/\.[^.]+$/, '')));
    const forged = `v1.${Buffer.from(JSON.stringify(['FB:x'])).toString('base64url')}.${token.split('.')[2]}`;
    refusedField(() => tokens.read(forged));
    refusedField(() => tokens.read('v1.!!'));
  });

  it('several tokens, comma-separated, answer their bookmarks merged; more than the limit is refused', () => {
    const tokens = new BookmarkTokens(crypto.randomBytes(32));
    const a = tokens.issue([bookmarks[0]!]);
    const b = tokens.issue(bookmarks);
    assert.deepEqual(tokens.read(`${a}, ${b}`), bookmarks);
    refusedField(() => tokens.read(Array.from({ length: MAX_BOOKMARKS + 1 }, () => a).join(',')));
    assert.equal(
      JSON.parse(
        Buffer.from(tokens.issue(Array.from({ length: 20 }, (_, i) => `b${i}`)).split('.')[1]!, 'base64url').toString(),
      ).length,
      MAX_BOOKMARKS,
      'a token keeps the latest bookmarks only',
    );
  });

  it('without a secrets key tokens are plain, and still refused when they are not tokens', () => {
    const tokens = new BookmarkTokens(null);
    const token = tokens.issue(bookmarks);
    assert.equal(token.split('.').length, 2);
    assert.deepEqual(tokens.read(token), bookmarks);
    refusedField(() => tokens.read(`v1.${Buffer.from('{"a":1}').toString('base64url')}`));
  });
});
