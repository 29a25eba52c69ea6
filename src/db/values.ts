// Converts Neo4j driver values into plain JSON-ready values: temporal types become ISO strings,
// nodes and relationships become their properties. Integers are already numbers (driver option).
import neo4j, { type DateTime, type Integer } from 'neo4j-driver';

export type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain };

export function toPlain(value: unknown): Plain {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(toPlain);
  if (neo4j.isInt(value)) return (value as { toNumber(): number }).toNumber();
  if (neo4j.isDateTime(value)) return isoDateTime(value as DateTime<number | Integer>);
  if (neo4j.isDate(value) || neo4j.isLocalDateTime(value) || neo4j.isTime(value) || neo4j.isDuration(value)) {
    return String(value);
  }
  if (neo4j.isNode(value) || neo4j.isRelationship(value)) {
    return toPlain((value as { properties: unknown }).properties);
  }
  if (typeof value === 'object') {
    const out: { [key: string]: Plain } = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = toPlain(v);
    return out;
  }
  return String(value);
}

/** ISO 8601 in UTC with milliseconds, the form every timestamp of the API takes. */
export function isoDateTime(value: DateTime<number | Integer>): string {
  // Fast path for the usual value (numeric fields, an offset, a year Date.UTC takes as given): the
  // driver's toStandardDate does the same arithmetic on its Integer type, several times slower.
  const { year, month, day, hour, minute, second, nanosecond, timeZoneOffsetSeconds: offset } = value;
  const fields = [year, month, day, hour, minute, second, nanosecond, offset];
  if (fields.every((f) => typeof f === 'number') && (year as unknown as number) >= 100) {
    const [y, mo, d, h, mi, s, ns, off] = fields as number[];
    const ms = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!, Math.floor(ns! / 1e6)) - off! * 1000;
    return new Date(ms).toISOString();
  }
  return value.toStandardDate().toISOString();
}
