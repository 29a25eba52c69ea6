// How a submission's payload is stored (docs/security.md, "Database-wide names"): Neo4j never
// reclaims a property key name and every tenant shares them, so one write may introduce only a few.
// The payload's leaves become flat properties `payload.<path>` (queryable in Cypher) while there are
// at most MAX_PAYLOAD_KEYS of them, none deeper than MAX_PAYLOAD_DEPTH and every key name plain; what
// does not fit that rule is kept whole, as canonical JSON text in the one property `payload_json`.
import { canonicalJson } from '../shared/canonicalJson.js';

export const MAX_PAYLOAD_KEYS = 32;
export const MAX_PAYLOAD_DEPTH = 2;
const PLAIN_KEY = /^[A-Za-z0-9_-]{1,64}$/;

type Scalar = string | number | boolean;
const isScalar = (v: unknown): v is Scalar => ['string', 'number', 'boolean'].includes(typeof v);
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The node properties a payload is stored as. */
export function payloadProperties(payload: Record<string, unknown>): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  let fits = true;
  const walk = (value: Record<string, unknown>, path: string[]): void => {
    for (const key of Object.keys(value).sort()) {
      const v = value[key];
      if (v === null || v === undefined) continue;
      const at = [...path, key];
      if (!PLAIN_KEY.test(key)) fits = false;
      else if (isPlainObject(v)) {
        if (at.length >= MAX_PAYLOAD_DEPTH) fits = false;
        else walk(v, at);
      } else if (isScalar(v) || (Array.isArray(v) && v.every(isScalar) && new Set(v.map((x) => typeof x)).size <= 1)) {
        if (Object.keys(flat).length >= MAX_PAYLOAD_KEYS) fits = false;
        else flat[`payload.${at.join('.')}`] = v;
      } else fits = false;
    }
  };
  walk(payload, []);
  return fits ? flat : { ...flat, payload_json: canonicalJson(payload as Parameters<typeof canonicalJson>[0]) };
}
