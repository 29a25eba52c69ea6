// Turns records of one source type into a delta through the bridge's mapping: an unknown record
// (by bridge and external id) is created, a known one gets only its changed properties and missing
// relationships, an identical one stages nothing. Relationship targets resolve within the batch or
// against committed entities of the bridge; an unresolved target is reported, never invented.
import crypto from 'node:crypto';
import type { Tx } from '../db/graph.js';
import type { Plain } from '../db/values.js';
import { tenantToken } from '../db/tenant.js';
import { DeltaDraft } from '../deltas/draft.js';
import type { PropValue } from '../deltas/props.js';
import { normalizeName } from '../entities/identity.js';
import { ApiError, invalid } from '../errors/catalogue.js';
import type { MappingRecord } from './store.js';

export interface MapContext {
  projectId: string;
  bridgeId: string;
  bridgeName: string;
  shapeId: string;
  mappings: MappingRecord[];
}

export interface Unresolved {
  record: number;
  field: string;
  target_type: string;
  external_id: string;
}

export interface MapPlan {
  draft: DeltaDraft;
  counts: { created: number; updated: number; unchanged: number };
  unresolved: Unresolved[];
  entity_ids: string[];
}

type Json = Record<string, unknown>;

function valueAt(record: Json, path: string): unknown {
  let node: unknown = record;
  for (const key of path.split('.'))
    node = node && typeof node === 'object' && !Array.isArray(node) ? (node as Json)[key] : undefined;
  return node;
}

/**
 * A record value as a flat property: scalars as they are (a wrong type stays, for the audit to see), objects as JSON
 * text.
 */
function propValue(v: unknown): PropValue | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return JSON.stringify(v);
}

/** Deterministic entity id: a retried or repeated map of one record names the same node. */
export function mappedEntityId(projectId: string, bridgeId: string, label: string, externalId: string): string {
  const h = crypto.createHash('sha256').update(`${projectId}|${bridgeId}|${label}|${externalId}`).digest('hex');
  const variant = ((parseInt(h[16]!, 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function findMapping(mappings: MappingRecord[], recordType: string): MappingRecord {
  const mapping = mappings.find((m) => m.record_type === recordType) ?? mappings.find((m) => m.label === recordType);
  if (!mapping)
    throw invalid(
      '/body/record_type',
      `is not a type of this bridge (one of: ${mappings.map((m) => m.record_type).join(', ')})`,
    );
  if (!mapping.identity_path) {
    throw new ApiError(
      'invalid_request',
      `${mapping.record_type} has no identity in this bridge; publish a version with options.identity_hints ` +
        'naming its identifying field.',
      {
        fields: [{ field: '/body/record_type', reason: `${mapping.record_type} has no identity` }],
      },
    );
  }
  return mapping;
}

interface Prepared {
  index: number;
  externalId: string;
  id: string;
  props: Record<string, PropValue>;
  targets: { rel: MappingRecord['relationships'][number]; externalIds: string[] }[];
}

function prepare(ctx: MapContext, mapping: MappingRecord, records: Json[]): Prepared[] {
  const seen = new Map<string, number>();
  return records.map((record, index) => {
    const raw = valueAt(record, mapping.identity_path!);
    if (raw === undefined || raw === null || typeof raw === 'object' || String(raw) === '') {
      throw invalid(
        `/body/records/${index}/${mapping.identity_path!.replace(/\./g, '/')}`,
        `is the identity of ${mapping.record_type} and must be a non-empty scalar`,
      );
    }
    const externalId = String(raw);
    const first = seen.get(externalId);
    if (first !== undefined)
      throw invalid(`/body/records/${index}`, `has the same identity (${externalId}) as /body/records/${first}`);
    seen.set(externalId, index);
    const props: Record<string, PropValue> = {};
    for (const p of mapping.properties) {
      const v = p.name === 'external_id' ? externalId : propValue(valueAt(record, p.path));
      if (v !== undefined) props[p.name] = v;
    }
    const named = mapping.name_path ? valueAt(record, mapping.name_path) : undefined;
    const name = typeof named === 'string' && named.trim() !== '' ? named : `${mapping.label} ${externalId}`;
    props.name = name;
    props.normalized_name = normalizeName(name);
    props.external_id = externalId;
    const targets = mapping.relationships.map((rel) => {
      const v = valueAt(record, rel.field);
      const items = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
      const externalIds = items
        .map((item) =>
          rel.target_identity_path && item && typeof item === 'object'
            ? valueAt(item as Json, rel.target_identity_path)
            : item,
        )
        .filter((x) => x !== undefined && x !== null && typeof x !== 'object')
        .map(String);
      return { rel, externalIds: [...new Set(externalIds)] };
    });
    return {
      index,
      externalId,
      id: mappedEntityId(ctx.projectId, ctx.bridgeId, mapping.label, externalId),
      props,
      targets,
    };
  });
}

const same = (a: Plain | undefined, b: PropValue): boolean =>
  a === b || (typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) < 1e-12);

/** A row of bridges/known_entities: a committed entity of the bridge by its external id (declared, not checked). */
interface KnownEntityRow {
  label: string;
  external_id: string;
  id: string;
  props: Record<string, Plain> | null;
  out_edges: string[];
  in_edges: string[];
}

export async function planMap(tx: Tx, ctx: MapContext, recordType: string, records: Json[]): Promise<MapPlan> {
  const mapping = findMapping(ctx.mappings, recordType);
  const prepared = prepare(ctx, mapping, records);
  const relTypes = [...new Set(mapping.relationships.map((r) => r.type))];
  const knownRows = await tx.run<KnownEntityRow>('bridges/known_entities', {
    refs: prepared.map((p) => ({ label: mapping.label, external_id: p.externalId })),
    bridge_id: ctx.bridgeId,
    project_id: ctx.projectId,
    types: relTypes,
  });
  const known = new Map(knownRows.map((r) => [r.external_id, r]));
  // Targets: this batch first (same type), then committed entities of the bridge.
  const batch = new Map(prepared.map((p) => [`${mapping.label}|${p.externalId}`, known.get(p.externalId)?.id ?? p.id]));
  const wanted = prepared
    .flatMap((p) => p.targets.flatMap((t) => t.externalIds.map((x) => ({ label: t.rel.target, external_id: x }))))
    .filter((ref) => !batch.has(`${ref.label}|${ref.external_id}`));
  const targetRows =
    wanted.length > 0
      ? await tx.run<KnownEntityRow>('bridges/known_entities', {
          refs: wanted,
          bridge_id: ctx.bridgeId,
          project_id: ctx.projectId,
          types: [],
        })
      : [];
  const resolved = new Map([...batch, ...targetRows.map((r) => [`${r.label}|${r.external_id}`, r.id] as const)]);

  const draft = new DeltaDraft(
    'bridge',
    `bridge ${ctx.bridgeName}: map ${records.length} ${mapping.record_type} record(s)`,
  );
  const plan: MapPlan = { draft, counts: { created: 0, updated: 0, unchanged: 0 }, unresolved: [], entity_ids: [] };
  const edges: { from: string; type: string; to: string; holder: Prepared; existing: Set<string> }[] = [];
  for (const p of prepared) {
    const row = known.get(p.externalId);
    const id = row ? row.id : p.id;
    plan.entity_ids.push(id);
    let changed = false;
    if (!row) {
      draft.createNode(
        ['Entity', mapping.label],
        {
          ...p.props,
          type: mapping.label,
          shape_id: ctx.shapeId,
          bridge_id: ctx.bridgeId,
          tenant: tenantToken(ctx.projectId),
        },
        { id, identityKey: `${ctx.projectId}|bridge:${ctx.bridgeId}|${mapping.label}|${p.externalId}` },
      );
      plan.counts.created += 1;
    } else {
      const current = row.props ?? {};
      const set = Object.fromEntries(Object.entries(p.props).filter(([k, v]) => !same(current[k], v)));
      if (Object.keys(set).length > 0) {
        draft.updateNode(id, set);
        changed = true;
      }
    }
    const existing = new Set([
      ...(row?.out_edges ?? []).map((e) => `out ${e}`),
      ...(row?.in_edges ?? []).map((e) => `in ${e}`),
    ]);
    for (const t of p.targets) {
      for (const x of t.externalIds) {
        const target = resolved.get(`${t.rel.target}|${x}`);
        if (!target) {
          plan.unresolved.push({ record: p.index, field: t.rel.field, target_type: t.rel.target, external_id: x });
          continue;
        }
        if (existing.has(`${t.rel.direction} ${t.rel.type} ${target}`)) continue;
        const [from, to] = t.rel.direction === 'out' ? [id, target] : [target, id];
        edges.push({ from, type: t.rel.type, to, holder: p, existing });
        if (row) changed = true;
      }
    }
    if (row) plan.counts[changed ? 'updated' : 'unchanged'] += 1;
  }
  const staged = new Set<string>();
  for (const e of edges) {
    const key = `${e.from} ${e.type} ${e.to}`;
    if (staged.has(key)) continue;
    staged.add(key);
    draft.createRelationship(e.from, e.type, e.to);
  }
  return plan;
}
