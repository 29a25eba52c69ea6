// The JSON shapes of deltas and their changes, as the API returns them.
import type { Plain } from '../db/values.js';
import type { JsonSchema } from '../http/route.js';
import type { Answer } from '../http/answer.js';
import { INTERNAL_PROPS } from './props.js';

const nullableString = { type: ['string', 'null'] } as const satisfies JsonSchema;

export const deltaSchema = {
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
} as const satisfies JsonSchema;

export const changeSchema = {
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
} as const satisfies JsonSchema;

export type DeltaStatus = 'staged' | 'applied' | 'rejected' | 'reverted' | 'failed';
type Change = { seq: number; change_id: string; op: Answer<typeof changeSchema>['op'] };

/** A :Delta node's properties, as deltas/get and deltas/list return them (declared, not checked). */
export interface DeltaProps {
  id: string;
  project_id: string;
  status: DeltaStatus;
  origin: string;
  summary: string;
  change_count: number;
  created_by: string;
  created_at: string;
  updated_at: string;
  applied_at?: string | null;
  applied_by?: string | null;
  rejected_at?: string | null;
  rejected_by?: string | null;
  reverted_at?: string | null;
  reverted_by?: string | null;
  reason?: string | null;
  failure_reason?: string | null;
  override_reason?: string | null;
  /** JSON text of the overridden findings. */
  override_findings?: string | null;
}

/** A row of deltas/changes (declared, not checked). */
export type ChangeRow = Change & {
  node_id: string | null;
  labels: string[] | null;
  properties: Record<string, Plain> | null;
  relationship_id: string | null;
  type: string | null;
  from_id: string | null;
  to_id: string | null;
  set: { key: string; value: Plain; previous: Plain }[] | null;
};

export type DeltaView = Answer<typeof deltaSchema>;

export function deltaView(p: DeltaProps): DeltaView {
  return {
    id: p.id,
    project_id: p.project_id,
    status: p.status,
    origin: p.origin,
    summary: p.summary,
    change_count: p.change_count,
    created_by: p.created_by,
    created_at: p.created_at,
    updated_at: p.updated_at,
    applied_at: p.applied_at ?? null,
    applied_by: p.applied_by ?? null,
    rejected_at: p.rejected_at ?? null,
    rejected_by: p.rejected_by ?? null,
    reverted_at: p.reverted_at ?? null,
    reverted_by: p.reverted_by ?? null,
    reason: p.reason ?? null,
    failure_reason: p.failure_reason ?? null,
    override_reason: p.override_reason ?? null,
    override_findings:
      typeof p.override_findings === 'string' ? (JSON.parse(p.override_findings) as Record<string, unknown>[]) : null,
  };
}

export function publicProps(props: Plain): Record<string, Plain> {
  const out: Record<string, Plain> = {};
  for (const [k, v] of Object.entries((props ?? {}) as Record<string, Plain>)) if (!INTERNAL_PROPS.has(k)) out[k] = v;
  return out;
}

export function changeView(row: ChangeRow): Answer<typeof changeSchema> {
  return {
    seq: row.seq,
    change_id: row.change_id,
    op: row.op,
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
export function historySchema<const K extends string>(idField: K) {
  const deltas = {
    type: 'array',
    items: {
      ...deltaSchema,
      properties: { ...deltaSchema.properties, ops: { type: 'array', items: { type: 'string' } } },
    },
  } as const satisfies JsonSchema;
  return {
    type: 'object',
    properties: { [idField]: { type: 'string' }, deltas },
  } as { type: 'object'; properties: { [P in K]: { type: 'string' } } & { deltas: typeof deltas } };
}

/** A row of a node's history: the delta and the ops it made on the node (declared, not checked). */
export interface HistoryRow {
  delta: DeltaProps;
  ops: string[] | null;
}

/** History rows (a delta and the ops it made on the node) as the history routes answer them. */
export function historyView(rows: HistoryRow[]) {
  return rows.map((r) => ({ ...deltaView(r.delta), ops: [...(r.ops ?? [])].sort() }));
}
