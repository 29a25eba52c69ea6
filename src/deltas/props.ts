// Property values as Neo4j stores them: flat scalars and lists of scalars; ISO date-times become
// native DATETIME values so Cypher can compare them. Nested objects are flattened to dotted keys.
import neo4j from 'neo4j-driver';

export type Scalar = string | number | boolean | null;
export type PropValue = Scalar | Scalar[] | Date | { date: string } | Record<string, unknown>;

/** Wraps a calendar date (YYYY-MM-DD) to be stored as a Neo4j DATE. */
export function dateValue(date: string): { date: string } {
  return { date };
}

function convert(value: unknown): unknown {
  if (value instanceof Date) return neo4j.types.DateTime.fromStandardDate(value);
  if (
    value &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    'date' in value &&
    Object.keys(value).length === 1
  ) {
    const [y, m, d] = String((value as { date: string }).date)
      .split('-')
      .map(Number);
    return new neo4j.types.Date(y ?? 1970, m ?? 1, d ?? 1);
  }
  return value;
}

/** Flattens nested plain objects into dotted keys (payload.a.b); drops undefined; keeps nulls only for updates. */
export function toNeoProps(input: Record<string, unknown>, keepNulls = false, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value === undefined) continue;
    if (value === null) {
      if (keepNulls) out[name] = null;
      continue;
    }
    if (
      typeof value === 'object' &&
      !Array.isArray(value) &&
      !(value instanceof Date) &&
      !('date' in value && Object.keys(value).length === 1)
    ) {
      Object.assign(out, toNeoProps(value as Record<string, unknown>, keepNulls, name));
      continue;
    }
    if (Array.isArray(value)) {
      // Neo4j lists hold one scalar type; mixed or nested lists are kept as strings.
      const scalars = value.filter((v) => v !== null && v !== undefined);
      const types = new Set(scalars.map((v) => typeof v));
      out[name] =
        types.size <= 1 && scalars.every((v) => typeof v !== 'object')
          ? scalars
          : scalars.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v)));
      continue;
    }
    out[name] = convert(value);
  }
  return out;
}

/** Properties the engine keeps on every governed node or relationship; hidden from API payloads. */
export const INTERNAL_PROPS = new Set([
  'project_id',
  'delta_id',
  'pending',
  'pending_identity_key',
  'identity_key',
  'tenant',
  'lock_token',
  // Recall by meaning (src/embeddings/model.ts EMBEDDING_PROPS): the vector and its bookkeeping.
  'embedding',
  'embedding_model',
  'embedding_text_hash',
  'embedding_queued_at',
  'embedding_error',
]);
