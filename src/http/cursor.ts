// Opaque keyset cursors: base64url of the last row's sort key, so pages stay stable under inserts.
// A cursor is checked field by field before any value of it reaches a statement: a well-formed
// token this service never issued is a 400 naming /query/cursor, never a Cypher error.
import { invalid } from '../errors/catalogue.js';

/** What a sort-key field holds: text, a number, or a timestamp as the API writes it (UTC, ms). */
export type CursorField = 'string' | 'number' | 'timestamp';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const valid: Record<CursorField, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  timestamp: (v) => typeof v === 'string' && ISO_MS.test(v) && !Number.isNaN(Date.parse(v)),
};

export function encodeCursor(key: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor<T extends Record<string, string | number>>(
  cursor: string | undefined,
  fields: { [K in keyof T]: CursorField },
): T | null {
  if (!cursor) return null;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    const kinds = Object.entries(fields) as [string, CursorField][];
    if (value !== null && typeof value === 'object' && kinds.every(([f, kind]) => valid[kind](value[f])))
      return value as T;
  } catch {
    /* reported below */
  }
  throw invalid('/query/cursor', 'is not a cursor returned by this endpoint');
}

/**
 * A keyset page from `limit + 1` rows: at most `limit` items, whether more follow, and the next cursor. A null row
 * is one deleted while the page was read: it is not shown, and the row read after the page (read to tell whether
 * more follow) takes its place, so a page is full whenever more rows exist. With a row deleted, more may follow
 * beyond those read, so has_more stays true and the next page says. The cursor is the last item shown, so the
 * next page skips nothing. When every row read was deleted (the caller reads again first, readPage), `resume`
 * (the cursor the request came with, else FROM_START's) is the next cursor: the same page, read again.
 */
export function keysetPage<T>(
  rows: (T | null)[],
  limit: number,
  keyOf: (last: T) => Record<string, string | number>,
  resume: string,
): { items: T[]; has_more: boolean; next_cursor: string | null } {
  const items = rows.filter((r): r is T => r !== null).slice(0, limit);
  const last = items[items.length - 1];
  const hasMore = rows.length > limit;
  const next = last === undefined ? resume : encodeCursor(keyOf(last));
  return { items, has_more: hasMore, next_cursor: hasMore ? next : null };
}

/**
 * Keys before every item of a list, by its order: the cursor of its first page (a page continues after its
 * key). Newest first: no item is created at the end of 9999. By name: every name is at least one character.
 * By id (the graph's nodes): every id sorts after ''. By source node, then id (the graph's edges): the same.
 */
export const FROM_START = {
  newest: { c: '9999-12-31T23:59:59.999Z', i: '' },
  by_name: { n: '', v: 0, i: '' },
  by_id: { i: '' },
  by_source: { s: '', i: '' },
} as const;

/** Reads of a page before keysetPage gives up on finding a row not deleted while it was read. */
const PAGE_READS = 3;

/**
 * A page's rows (`limit + 1`, see keysetPage), read again while every row read was deleted while it was read and
 * more follow: those deletions are done by the next read, which then shows the rows after them.
 */
export async function readPage<T>(
  read: () => Promise<T[]>,
  limit: number,
  present: (row: T) => boolean = (row) => row !== null,
): Promise<T[]> {
  let rows = await read();
  for (let n = 1; n < PAGE_READS && rows.length > limit && !rows.some(present); n += 1) rows = await read();
  return rows;
}

/**
 * A page of events numbered from 1, read from a workflow history: those after `afterSequence`, at most `limit`,
 * the sequence to continue after and whether more follow.
 */
export function sequencePage<E extends { sequence: number }>(
  all: E[],
  afterSequence: number,
  limit: number,
): { events: E[]; next_after_sequence: number; has_more: boolean } {
  const after = all.filter((e) => e.sequence > afterSequence);
  const events = after.slice(0, limit);
  return {
    events,
    next_after_sequence: events[events.length - 1]?.sequence ?? afterSequence,
    has_more: after.length > limit,
  };
}
