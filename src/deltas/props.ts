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

/**
 * Equal for certain: the same scalar, lists of the same scalars, or Neo4j dates or date-times of the same kind with
 * the same fields (year ... nanosecond, time zone). Compared field by field, not as printed: printing a date for each
 * of a batch's 100 rows was splitSharedProps' largest part in a CPU profile (a batch of 100 memories: 0.23-0.31 ms
 * -> 0.19-0.20 ms, .cache/probe/splitBench.ts after warm-up).
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
  const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
  if (!((neo4j.isDate(x) && neo4j.isDate(y)) || (neo4j.isDateTime(x) && neo4j.isDateTime(y)))) return false;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => Object.is(x[k], y[k]));
}

/**
 * Splits the properties of many new nodes into those every one has with the same value (shared) and each one's
 * own rest. A batch sends what its nodes share once: a batch of memories shares its kind, scope, schema, shape,
 * date and tenant, and packing them row by row was half the driver's work on a batch of 100.
 * A single node keeps all its properties its own.
 */
export function splitSharedProps(rows: readonly Record<string, unknown>[]): {
  shared: Record<string, unknown>;
  own: Record<string, unknown>[];
} {
  const [first, ...rest] = rows;
  if (!first || rest.length === 0) return { shared: {}, own: [...rows] };
  const shared: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(first))
    if (rest.every((row) => key in row && sameValue(row[key], value))) shared[key] = value;
  const own = rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !(key in shared))));
  return { shared, own };
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
  // A memory's context vector (docs/recall.md, "Context") and its hash.
  'context_embedding',
  'context_text_hash',
  // The mention worker's queue and its record of what it read (docs/recall.md, "Hops").
  'mentions_queued_at',
  'mentions_hash',
]);
