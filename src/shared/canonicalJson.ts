// Canonical JSON, the one text form the service hashes and stores JSON values in (briefing and pack
// digests, slice definitions, bridge options and source digests).
//
// Canonical JSON: object keys sorted by UTF-16 code unit order at every depth, array order kept,
// no whitespace, strings and numbers as JSON.stringify writes them, keys whose value is undefined
// left out; the resulting string is encoded as UTF-8 and hashed with SHA-256, written as 64
// lowercase hex characters.
import { createHash } from 'node:crypto';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json | undefined };

/** Canonical JSON as defined above; throws on numbers JSON cannot represent. */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`canonical JSON cannot represent ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value)
    .filter((key) => value[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] as Json)}`).join(',')}}`;
}

/** Canonical JSON of a value parsed from JSON (or built of JSON-safe parts), whose static type is wider. */
export function canonicalJsonOf(value: unknown): string {
  return canonicalJson(value as Json); // parsed JSON is Json; a non-finite number still throws above
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
