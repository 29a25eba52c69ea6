// The JSON shapes of deltas and their changes, as the API returns them.
import type { Plain } from '../db/values.js';
import type { JsonSchema } from '../http/route.js';
import { INTERNAL_PROPS } from './props.js';

const nullableString = { type: ['string', 'null'] };

export const deltaSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    project_id: { type: 'string' },
    status: { enum: ['staged', 'applied', 'rejected', 'reverted', 'failed'] },
    origin: {
      type: 'string',
      description:
        'Where the write came from: memory, correction, submission, document, loop, shape, slice, context, bridge, ' +
        'connection, connection_sync, or mcp for a write made through an MCP tool (docs/mcp.md).',
    },
    summary: { type: 'string' },
    change_count: { type: 'integer' },
    created_by: { type: 'string', description: 'id of the API key that made the write' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    applied_at: nullableString,
    applied_by: nullableString,
    rejected_at: nullableString,
    rejected_by: nullableString,
    reverted_at: nullableString,
    reverted_by: nullableString,
    reason: { ...nullableString, description: 'reason given on reject or revert' },
    failure_reason: { ...nullableString, description: 'why a failed write could not be applied' },
    override_reason: { ...nullableString, description: 'reason recorded when applied over preflight error findings' },
    override_findings: {
      type: ['array', 'null'],
      items: { type: 'object' },
      description: 'the preflight error findings override_reason overrode (null when applied without an override)',
    },
  },
};

export const changeSchema: JsonSchema = {
  type: 'object',
  properties: {
    seq: { type: 'integer' },
    change_id: {
      type: 'string',
      description: 'the record of this change within the delta (delta_entity_id for created nodes)',
    },
    op: { enum: ['create_node', 'create_relationship', 'update_node', 'delete_node', 'delete_relationship'] },
    node_id: nullableString,
    labels: { type: ['array', 'null'], items: { type: 'string' } },
    properties: { type: ['object', 'null'] },
    relationship_id: nullableString,
    type: nullableString,
    from: nullableString,
    to: nullableString,
    set: { type: 'array', items: { type: 'object', properties: { key: { type: 'string' }, value: {}, previous: {} } } },
  },
};

const FIELDS = [
  'id',
  'project_id',
  'status',
  'origin',
  'summary',
  'change_count',
  'created_by',
  'created_at',
  'updated_at',
  'applied_at',
  'applied_by',
  'rejected_at',
  'rejected_by',
  'reverted_at',
  'reverted_by',
  'reason',
  'failure_reason',
  'override_reason',
];

export function deltaView(props: Plain): Record<string, Plain> {
  const p = (props ?? {}) as Record<string, Plain>;
  const out: Record<string, Plain> = {};
  for (const f of FIELDS) out[f] = p[f] ?? null;
  out.override_findings = typeof p.override_findings === 'string' ? (JSON.parse(p.override_findings) as Plain) : null;
  return out;
}

export function publicProps(props: Plain): Record<string, Plain> {
  const out: Record<string, Plain> = {};
  for (const [k, v] of Object.entries((props ?? {}) as Record<string, Plain>)) if (!INTERNAL_PROPS.has(k)) out[k] = v;
  return out;
}

export function changeView(row: Record<string, Plain>): Record<string, Plain> {
  return {
    seq: row.seq ?? null,
    change_id: row.change_id ?? null,
    op: row.op ?? null,
    node_id: row.node_id ?? null,
    labels: row.labels ?? null,
    properties: row.properties === null || row.properties === undefined ? null : publicProps(row.properties),
    relationship_id: row.relationship_id ?? null,
    type: row.type ?? null,
    from: row.from_id ?? null,
    to: row.to_id ?? null,
    set: row.set ?? [],
  };
}

/** The answer of a node's history route: its id under `idField` and each delta with the ops it made on it. */
export function historySchema(idField: string): JsonSchema {
  return {
    type: 'object',
    properties: {
      [idField]: { type: 'string' },
      deltas: {
        type: 'array',
        items: {
          ...deltaSchema,
          properties: {
            ...(deltaSchema.properties as Record<string, JsonSchema>),
            ops: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
  };
}

/** History rows (a delta and the ops it made on the node) as the history routes answer them. */
export function historyView(rows: Record<string, Plain>[]): Record<string, Plain>[] {
  return rows.map((r) => ({
    ...deltaView(r.delta ?? null),
    ops: [...((r.ops ?? []) as Plain[])].map(String).sort(),
  }));
}
