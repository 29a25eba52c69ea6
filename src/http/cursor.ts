// Opaque keyset cursors: base64url of the last row's sort key, so pages stay stable under inserts.
import { invalid } from '../errors/catalogue.js';

export function encodeCursor(key: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor<T extends Record<string, string | number>>(
  cursor: string | undefined,
  fields: (keyof T)[],
): T | null {
  if (!cursor) return null;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as T;
    if (fields.every((f) => value[f] !== undefined)) return value;
  } catch {
    /* reported below */
  }
  throw invalid('/query/cursor', 'is not a cursor returned by this endpoint');
}
