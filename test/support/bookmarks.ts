// Neo4j 5's bookmarks, read for tests: "FB:" and base64 of a PackStream list of (database uuid, last transaction id)
// pairs. A test moves one ahead by a transaction or more, to ask the database for a state it has not reached (a
// follower behind its leader, on one instance): the service itself never reads or makes bookmarks.

/** The transaction id a bookmark names, and the bytes around it. */
function parse(bookmark: string): { head: Buffer; tx: number; tail: Buffer } {
  const bytes = Buffer.from(bookmark.replace(/^FB:/, ''), 'base64');
  // 0x91: a list of one; 0xCC 0x10: 16 bytes (the database's uuid); then the transaction id; then 0x90 (no more).
  if (!bookmark.startsWith('FB:') || bytes[0] !== 0x91 || bytes[1] !== 0xcc || bytes[2] !== 0x10)
    throw new Error(`not a bookmark of the form this test reads (Neo4j 5, one database): ${bookmark}`);
  const at = 19;
  const marker = bytes[at]!;
  const [tx, size] =
    marker < 0x80
      ? [marker, 1]
      : marker === 0xc8
        ? [bytes.readInt8(at + 1), 2]
        : marker === 0xc9
          ? [bytes.readInt16BE(at + 1), 3]
          : marker === 0xca
            ? [bytes.readInt32BE(at + 1), 5]
            : marker === 0xcb
              ? [Number(bytes.readBigInt64BE(at + 1)), 9]
              : [NaN, 0];
  if (Number.isNaN(tx)) throw new Error(`unknown transaction id marker ${marker} in ${bookmark}`);
  return { head: bytes.subarray(0, at), tx, tail: bytes.subarray(at + size) };
}

/** The last transaction id a bookmark names. */
export function transactionOf(bookmark: string): number {
  return parse(bookmark).tx;
}

/** The bookmark of the state `ahead` transactions after the one this bookmark names. */
export function bookmarkAhead(bookmark: string, ahead: number): string {
  const { head, tx, tail } = parse(bookmark);
  const id = Buffer.alloc(9);
  id[0] = 0xcb;
  id.writeBigInt64BE(BigInt(tx + ahead), 1);
  return `FB:${Buffer.concat([head, id, tail]).toString('base64')}`;
}
