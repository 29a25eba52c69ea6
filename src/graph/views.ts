// Graph nodes and edges as the API shows them (Graph and Search areas): engine labels (Knowledge,
// Pending) and engine properties (project_id, tenant, delta_id, identity keys) never appear;
// pending work is marked pending: true with the delta that stages it.
import type { Plain } from '../db/values.js';
import type { JsonSchema } from '../http/route.js';
import type { Answer } from '../http/answer.js';
import { INTERNAL_PROPS } from '../deltas/props.js';

type Props = Record<string, Plain>;

/** A node's properties as the graph statements return them: free-form, with these known (declared, not checked). */
export type NodeProps = Props & {
  id: string;
  name?: string | null;
  delta_id?: string;
  created_at?: string | null;
  updated_at?: string | null;
};

/** A row {props, labels, pending} of cypher/graph/*.cypher (declared, not checked). */
export interface GraphNodeRow {
  props: NodeProps | null;
  labels: string[] | null;
  pending?: boolean | null;
  distance?: number;
}

/** A relationship row in the element shape (declared, not checked). */
export interface GraphEdgeRow {
  id: string | null;
  type: string;
  source: string;
  target: string;
  source_label?: string | null;
  source_name?: string | null;
  target_label?: string | null;
  target_name?: string | null;
  properties?: (Props & { delta_id?: string }) | null;
  pending?: boolean | null;
}

/**
 * An edge row as the graph reads give it: reads are read-committed, so a relationship deleted while the page
 * was read comes back with its type and ends null (declared, not checked).
 */
export type EdgeReadRow = Omit<GraphEdgeRow, 'type' | 'source' | 'target'> & {
  type: string | null;
  source: string | null;
  target: string | null;
  /** graph/edges_walk only: the first node its walk did not reach (null: none left); every row carries it. */
  cut_at?: string | null;
};

/**
 * Where a page of edges continues: after this relationship of this source node. Edges are listed by their source
 * node's id, then their own (cypher/graph/edges.cypher says why); the start is before every id ('').
 */
export interface EdgeKey {
  source: string;
  id: string;
}

/** The ends and type of any edge row as a read gives it: null when deleted while it was read. */
interface EdgeEnds {
  type: string | null;
  source: string | null;
  target: string | null;
}

/**
 * A relationship still there: its type and both ends. Every read that answers edges keeps only these
 * (reads are read-committed: one deleted while the statement read it comes back with null type and ends).
 */
export const isWhole = <R extends EdgeEnds>(r: R): r is R & { type: string; source: string; target: string } =>
  r.type !== null && r.source !== null && r.target !== null;

/**
 * A node's properties still there: a map with its id. Reads are read-committed, so a node deleted while the
 * statement read it comes back as a null map (`n {.id, …}`), an empty one (`properties(n)`) or one with only
 * the keys the projection names (`n {.*, embedding: null}`); every read that answers nodes keeps only these
 * (test/graph/deletedMidRead.test.ts).
 */
export const isPresent = <P>(props: P | null | undefined): props is NonNullable<P> & { id: string } =>
  typeof props === 'object' && props !== null && typeof (props as { id?: unknown }).id === 'string';

export type GraphNodeView = Answer<typeof graphNodeSchema>;
export type GraphEdgeView = Answer<typeof graphEdgeSchema>;

const HIDDEN_LABELS = new Set(['Knowledge', 'Pending']);
/** Shown at the top level of a node, so left out of its properties. */
const TOP_LEVEL = new Set(['id', 'name', 'created_at', 'updated_at']);

/** Properties without the engine's own. */
export function visibleProps(
  props: Partial<Props> | null | undefined,
  alsoHide: ReadonlySet<string> = new Set(),
): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(props ?? {}))
    if (v !== undefined && !INTERNAL_PROPS.has(k) && !alsoHide.has(k)) out[k] = v;
  return out;
}

export function visibleLabels(labels: Plain | undefined): string[] {
  return ((labels ?? []) as string[]).filter((l) => !HIDDEN_LABELS.has(l));
}

/** A row {props, labels, pending} of cypher/graph/*.cypher as a graph node. */
export function graphNodeView(row: GraphNodeRow): GraphNodeView {
  const p = row.props ?? ({} as Partial<NodeProps>);
  const pending = row.pending === true;
  return {
    id: p.id!,
    labels: visibleLabels(row.labels),
    name: p.name ?? null,
    properties: visibleProps(p, TOP_LEVEL),
    pending,
    ...(pending ? { delta_id: p.delta_id! } : {}),
    created_at: p.created_at ?? null,
    updated_at: p.updated_at ?? null,
    ...(row.distance !== undefined ? { distance: row.distance } : {}),
  };
}

/** An edge in the element shape of memory search (id, type, source, target, their labels and names, properties). */
export function edgeView(row: GraphEdgeRow, withPending: boolean): GraphEdgeView {
  const props = row.properties ?? {};
  const view: GraphEdgeView = {
    id: row.id ?? null,
    type: row.type,
    source: row.source,
    target: row.target,
    source_label: row.source_label ?? null,
    source_name: row.source_name ?? null,
    target_label: row.target_label ?? null,
    target_name: row.target_name ?? null,
    properties: visibleProps(props, new Set(['id'])),
  };
  if (withPending) {
    view.pending = row.pending === true;
    if (row.pending === true) view.delta_id = props.delta_id!;
  }
  return view;
}

const nullableString = { type: ['string', 'null'] } as const satisfies JsonSchema;

export const graphNodeSchema = {
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
} as const satisfies JsonSchema;

export const graphEdgeSchema = {
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
} as const satisfies JsonSchema;
