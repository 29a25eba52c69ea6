// How a bridge lives in the graph: a :Bridge node (flat properties; the options as canonical JSON
// text) that PROPOSES its :Shape (one per version) and HAS_MAPPING one :BridgeMapping per type and
// version, each with the record paths of its identity, name, properties and relationships as
// parallel lists.
import type { SOURCE_FORMATS } from './translate/types.js';
import { canonicalJsonOf } from '../shared/canonicalJson.js';
import type { Plain } from '../db/values.js';
import type { PropValue } from '../deltas/props.js';
import type { DeltaDraft } from '../deltas/draft.js';
import type {
  Proposal,
  ProposedRelationship,
  ProposedType,
  ProposeOptions,
  Unmapped,
  SourceFormat,
} from './translate/index.js';
import type { Graph } from '../db/graph.js';

/** A :Bridge node's properties and whether it is staged, as its statements return them (declared, not checked). */
export interface BridgeProps {
  id: string;
  name: string;
  version?: number | null;
  pending?: boolean | null;
  delta_id: string;
  shape_id: string;
  source_format: (typeof SOURCE_FORMATS)[number];
  source_digest: string;
  source_url?: string | null;
  /** JSON text of the options. */
  options?: string | null;
  unmapped_pointers?: string[] | null;
  unmapped_reasons?: string[] | null;
  type_count?: number | null;
  relationship_count?: number | null;
  created_at?: string | null;
  updated_at?: string | null;
}

export interface BridgeSource {
  format: SourceFormat;
  digest: string;
  url: string | null;
}

export type MappingRecord = {
  label: string;
  record_type: string;
  source_pointer: string;
  identity_path: string | null;
  identity_source: ProposedType['identity_source'];
  name_path: string | null;
  properties: { name: string; path: string; type: string }[];
  relationships: {
    type: string;
    field: string;
    target: string;
    cardinality: string;
    direction: 'out' | 'in';
    inferred: boolean;
    target_identity_path: string | null;
  }[];
};

/** The mapping of each proposed type: its properties, and the relationships its records carry. */
export function mappingsOf(proposal: Proposal): MappingRecord[] {
  const holder = (r: ProposedRelationship) => (r.direction === 'out' ? r.from : r.to);
  return proposal.entity_types.map((t) => ({
    label: t.label,
    record_type: t.source_name,
    source_pointer: t.source_pointer,
    identity_path: t.identity_path,
    identity_source: t.identity_source,
    name_path: t.name_path,
    properties: t.properties.filter((p) => p.path !== '').map((p) => ({ name: p.name, path: p.path, type: p.type })),
    relationships: proposal.relationship_types
      .filter((r) => holder(r) === t.label)
      .map((r) => ({
        type: r.type,
        field: r.field,
        target: r.direction === 'out' ? r.to : r.from,
        cardinality: r.cardinality,
        direction: r.direction,
        inferred: r.inferred,
        target_identity_path: r.target_identity_path,
      })),
  }));
}

function mappingProps(
  bridgeId: string,
  version: number,
  m: MappingRecord,
  position: number,
): Record<string, PropValue> {
  return {
    bridge_id: bridgeId,
    version,
    position,
    label: m.label,
    record_type: m.record_type,
    source_pointer: m.source_pointer,
    identity_path: m.identity_path,
    identity_source: m.identity_source,
    name_path: m.name_path,
    property_names: m.properties.map((p) => p.name),
    property_paths: m.properties.map((p) => p.path),
    property_types: m.properties.map((p) => p.type),
    relationship_types: m.relationships.map((r) => r.type),
    relationship_fields: m.relationships.map((r) => r.field),
    relationship_targets: m.relationships.map((r) => r.target),
    relationship_cardinalities: m.relationships.map((r) => r.cardinality),
    relationship_directions: m.relationships.map((r) => r.direction),
    relationship_inferred: m.relationships.map((r) => r.inferred),
    relationship_target_identity_paths: m.relationships.map((r) => r.target_identity_path ?? ''),
  };
}

/** A :Mapping node's properties as mappingProps writes them (declared, not checked); the rest are read as lists. */
export type MappingProps = Record<string, Plain> & {
  label: string;
  record_type: string;
  source_pointer?: string | null;
  identity_source?: MappingRecord['identity_source'] | null;
};

export function mappingFromProps(p: MappingProps): MappingRecord {
  const list = (k: string): Plain[] => (Array.isArray(p[k]) ? (p[k] as Plain[]) : []);
  const strings = (k: string) => list(k).map(String);
  const names = strings('property_names');
  const paths = strings('property_paths');
  const types = strings('property_types');
  const relTypes = strings('relationship_types');
  const fields = strings('relationship_fields');
  const targets = strings('relationship_targets');
  const cards = strings('relationship_cardinalities');
  const dirs = strings('relationship_directions');
  const inferred = list('relationship_inferred');
  const idPaths = strings('relationship_target_identity_paths');
  return {
    label: p.label,
    record_type: p.record_type,
    source_pointer: p.source_pointer ?? '',
    identity_path: typeof p.identity_path === 'string' ? p.identity_path : null,
    identity_source: p.identity_source ?? 'none',
    name_path: typeof p.name_path === 'string' ? p.name_path : null,
    properties: names.map((name, i) => ({ name, path: paths[i] ?? '', type: types[i] ?? 'string' })),
    relationships: relTypes.map((type, i) => ({
      type,
      field: fields[i] ?? '',
      target: targets[i] ?? '',
      cardinality: cards[i] ?? 'many_to_many',
      direction: dirs[i] === 'in' ? 'in' : 'out',
      inferred: inferred[i] === true,
      target_identity_path: idPaths[i] ? idPaths[i]! : null,
    })),
  };
}

export interface BridgeNodeInput {
  projectId: string;
  name: string;
  version: number;
  shapeId: string;
  source: BridgeSource;
  options: ProposeOptions;
  unmapped: Unmapped[];
  proposal: Proposal;
}

function bridgeProps(input: BridgeNodeInput): Record<string, PropValue> {
  return {
    version: input.version,
    shape_id: input.shapeId,
    source_format: input.source.format,
    source_digest: input.source.digest,
    source_url: input.source.url,
    options: canonicalJsonOf(input.options),
    unmapped_pointers: input.unmapped.map((u) => u.pointer),
    unmapped_reasons: input.unmapped.map((u) => u.reason),
    type_count: input.proposal.entity_types.length,
    relationship_count: input.proposal.relationship_types.length,
  };
}

function stageMappings(draft: DeltaDraft, bridgeId: string, version: number, proposal: Proposal): void {
  mappingsOf(proposal).forEach((m, i) => {
    const mappingId = draft.createNode(['BridgeMapping'], mappingProps(bridgeId, version, m, i));
    draft.createRelationship(bridgeId, 'HAS_MAPPING', mappingId);
  });
}

/** Stages a new bridge (its shape is staged by the caller into the same draft). */
export function stageBridge(draft: DeltaDraft, input: BridgeNodeInput): string {
  const bridgeId = draft.createNode(['Bridge'], {
    name: input.name,
    name_key: `${input.projectId}|${input.name}`,
    ...bridgeProps(input),
  });
  draft.createRelationship(bridgeId, 'PROPOSES', input.shapeId);
  stageMappings(draft, bridgeId, input.version, input.proposal);
  return bridgeId;
}

/**
 * Stages a bridge's next version: the node updated, the new shape proposed, mappings of the new
 * version added. Earlier versions' mappings stay as history (a bridge reads those of its version).
 */
export function stageBridgeVersion(draft: DeltaDraft, bridgeId: string, input: BridgeNodeInput): void {
  draft.updateNode(bridgeId, bridgeProps(input));
  draft.createRelationship(bridgeId, 'PROPOSES', input.shapeId);
  stageMappings(draft, bridgeId, input.version, input.proposal);
}

/** A page of the project's bridges, newest first (limit + 1 rows, for the keyset page). */
export async function listBridges(
  graph: Graph,
  projectId: string,
  filter: { name: string | null; after: { c: string; i: string } | null; limit: number },
): Promise<{ bridge: BridgeProps }[]> {
  return graph.read((tx) =>
    tx.run<{ bridge: BridgeProps }>('bridges/list', {
      project_id: projectId,
      name: filter.name,
      after_created_at: filter.after?.c ?? null,
      after_id: filter.after?.i ?? null,
      limit: filter.limit + 1,
    }),
  );
}
