// Graph nodes and edges as the API shows them (Graph and Search areas): engine labels (Knowledge,
// Pending) and engine properties (project_id, tenant, delta_id, identity keys) never appear;
// pending work is marked pending: true with the delta that stages it.
import type { Plain } from '../db/values.js';
import type { JsonSchema } from '../http/route.js';
import { INTERNAL_PROPS } from '../deltas/props.js';

type Props = Record<string, Plain>;

const HIDDEN_LABELS = new Set(['Knowledge', 'Pending']);
/** Shown at the top level of a node, so left out of its properties. */
const TOP_LEVEL = new Set(['id', 'name', 'created_at', 'updated_at']);

/** Properties without the engine's own. */
export function visibleProps(props: Plain | undefined, alsoHide: ReadonlySet<string> = new Set()): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries((props ?? {}) as Props))
    if (!INTERNAL_PROPS.has(k) && !alsoHide.has(k)) out[k] = v;
  return out;
}

export function visibleLabels(labels: Plain | undefined): string[] {
  return ((labels ?? []) as string[]).filter((l) => !HIDDEN_LABELS.has(l));
}

/** A row {props, labels, pending} of cypher/graph/*.cypher as a graph node. */
export function graphNodeView(row: Record<string, Plain>): Props {
  const p = (row.props ?? {}) as Props;
  const pending = row.pending === true;
  return {
    id: p.id ?? null,
    labels: visibleLabels(row.labels),
    name: p.name ?? null,
    properties: visibleProps(p, TOP_LEVEL),
    pending,
    ...(pending ? { delta_id: p.delta_id ?? null } : {}),
    created_at: p.created_at ?? null,
    updated_at: p.updated_at ?? null,
    ...(row.distance !== undefined ? { distance: row.distance } : {}),
  };
}

/** An edge in the element shape of memory search (id, type, source, target, their labels and names, properties). */
export function edgeView(row: Record<string, Plain>, withPending: boolean): Props {
  const props = (row.properties ?? {}) as Props;
  const view: Props = {
    id: row.id ?? null,
    type: row.type ?? null,
    source: row.source ?? null,
    target: row.target ?? null,
    source_label: row.source_label ?? null,
    source_name: row.source_name ?? null,
    target_label: row.target_label ?? null,
    target_name: row.target_name ?? null,
    properties: visibleProps(props, new Set(['id'])),
  };
  if (withPending) {
    view.pending = row.pending === true;
    if (row.pending === true) view.delta_id = props.delta_id ?? null;
  }
  return view;
}

const nullableString: JsonSchema = { type: ['string', 'null'] };

export const graphNodeSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    labels: {
      type: 'array',
      items: { type: 'string' },
      description: 'Neo4j labels without the engine\'s (Knowledge, Pending): ["Entity", "Person"]',
    },
    name: nullableString,
    properties: { type: 'object', description: "Every property but id, name, timestamps and the engine's own" },
    pending: {
      type: 'boolean',
      description: 'true for a node staged in a delta not yet applied (include_pending=true only)',
    },
    delta_id: { type: 'string', description: 'present when pending: the delta that stages it' },
    distance: { type: 'integer', description: 'neighbourhood reads: hops from the centre node' },
    created_at: nullableString,
    updated_at: nullableString,
  },
};

export const graphEdgeSchema: JsonSchema = {
  type: 'object',
  description: 'A relationship, in the element shape of memory search edges, plus pending.',
  properties: {
    id: nullableString,
    type: { type: 'string' },
    source: { type: 'string' },
    target: { type: 'string' },
    source_label: nullableString,
    source_name: nullableString,
    target_label: nullableString,
    target_name: nullableString,
    properties: { type: 'object' },
    pending: { type: 'boolean' },
    delta_id: { type: 'string', description: 'present when pending' },
  },
};
