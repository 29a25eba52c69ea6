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

/** A keyset page from `limit + 1` rows: the first `limit`, whether more follow, and the next cursor. */
export function keysetPage<T>(
  rows: (T | null)[],
  limit: number,
  keyOf: (last: T) => Record<string, string | number>,
): { items: T[]; has_more: boolean; next_cursor: string | null } {
  // A null row is one deleted while the page was read: counted for has_more, not shown, so the cursor is the
  // last item shown and the next page skips nothing.
  const items = rows.slice(0, limit).filter((r): r is T => r !== null);
  const last = items[items.length - 1];
  const hasMore = rows.length > limit;
  return { items, has_more: hasMore, next_cursor: hasMore && last !== undefined ? encodeCursor(keyOf(last)) : null };
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
