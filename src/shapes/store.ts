// How a shape lives in the graph: a :Shape node that DEFINES :EntityType nodes (each HAS_PROPERTY
// :PropertyDef nodes) and :RelationshipType nodes. Project shapes are staged through a delta, so
// their definition nodes are :Knowledge too; loadShape reads committed definitions only.
import { Graph, Tx } from '../db/graph.js';
import type { Plain } from '../db/values.js';
import { invalid } from '../errors/catalogue.js';
import type { DeltaDraft } from '../deltas/draft.js';
import type { Definition } from './definition.js';
import type {
  Cardinality,
  EntityTypeDef,
  PropertyDef,
  PropertyType,
  RelationshipTypeDef,
  ShapeRecord,
  ShapeStatus,
} from './types.js';
import { BUILTIN_SHAPE_ID_LIST } from './types.js';

type Props = Record<string, Plain>;

const str = (v: Plain | undefined): string | null => (typeof v === 'string' ? v : null);
const strings = (v: Plain | undefined): string[] => (Array.isArray(v) ? v.map(String) : []);
const optional = <K extends string>(key: K, v: Plain | undefined): Partial<Record<K, string>> =>
  typeof v === 'string' ? ({ [key]: v } as Record<K, string>) : {};

// The definition nodes' properties, as stageShape writes them from a validated definition (and the
// seeds write the built-in shapes'): declared, not checked.
type PropertyDefProps = Props & { name: string; type: PropertyType };
type EntityTypeProps = Props & { label: string };
type RelationshipTypeProps = Props & { type: string; from: string; to: string; cardinality?: Cardinality | null };

/** cypher/shapes/definition.cypher's row (declared, not checked). */
interface ShapeDefinitionRow {
  shape: Props;
  entity_types: { type: EntityTypeProps; properties: PropertyDefProps[] }[];
  relationship_types: RelationshipTypeProps[];
  superseded_by: string | null;
  supersedes: string | null;
}

function propertyDef(p: PropertyDefProps): PropertyDef {
  return {
    name: p.name,
    type: p.type,
    ...optional('description', p.description),
    ...(Array.isArray(p.enum) ? { enum: strings(p.enum) } : {}),
  };
}

function entityTypeDef(row: ShapeDefinitionRow['entity_types'][number]): EntityTypeDef {
  const t = row.type;
  return {
    label: t.label,
    ...optional('description', t.description),
    properties: row.properties.map(propertyDef),
    required: strings(t.required),
    identity: str(t.identity) ?? 'name',
  };
}

function relationshipTypeDef(r: RelationshipTypeProps): RelationshipTypeDef {
  return {
    type: r.type,
    from: r.from,
    to: r.to,
    cardinality: r.cardinality ?? 'many_to_many',
    ...(r.temporal === 'single_valued_at_a_time' || r.temporal === 'many' ? { temporal: r.temporal } : {}),
    ...optional('description', r.description),
    patterns: strings(r.patterns),
  };
}

/** A row of shapes/definition as the shape record the API and the loops use. */
export function shapeRecord(row: ShapeDefinitionRow): ShapeRecord {
  const s = row.shape;
  return {
    id: String(s.id),
    name: String(s.name),
    version: Number(s.version ?? 1),
    ...optional('description', s.description),
    ...optional('schema_tag', s.schema_tag),
    entity_types: row.entity_types.map(entityTypeDef),
    relationship_types: row.relationship_types.map(relationshipTypeDef),
    orphans_allowed: strings(s.orphans_allowed),
    status: (str(s.status) ?? 'published') as ShapeStatus,
    builtin: s.builtin === true,
    project_id: str(s.project_id),
    supersedes: str(row.supersedes),
    superseded_by: str(row.superseded_by),
    created_at: str(s.created_at),
    updated_at: str(s.updated_at),
  };
}

/**
 * The committed definition of a shape visible to the project (built-in, or the project's own), or
 * null. Takes the graph, or a transaction already open (inside a governed write's builder).
 */
export async function loadShape(source: Graph | Tx, shapeId: string, projectId: string): Promise<ShapeRecord | null> {
  const read = (tx: Tx) => tx.one<ShapeDefinitionRow>('shapes/definition', { id: shapeId, project_id: projectId });
  const row = source instanceof Tx ? await read(source) : await source.read(read);
  return row ? shapeRecord(row) : null;
}

export interface StagedShape {
  id: string;
  name: string;
  version: number;
  schema_tag: string;
}

/** Stages the shape node and its whole definition into the draft; the new version SUPERSEDES the old. */
export function stageShape(
  draft: DeltaDraft,
  projectId: string,
  name: string,
  version: number,
  def: Definition,
  supersedes: string | null,
): StagedShape {
  const schemaTag = `${name}/v${version}`;
  const shapeId = draft.createNode(['Shape'], {
    name,
    version,
    status: 'published',
    builtin: false,
    schema_tag: schemaTag,
    description: def.description ?? null,
    orphans_allowed: def.orphans_allowed ?? [],
    version_key: `${projectId}|${name}|${version}`,
  });
  def.entity_types.forEach((t, i) => {
    const typeId = draft.createNode(['EntityType'], {
      shape_id: shapeId,
      label: t.label,
      description: t.description ?? null,
      identity: t.identity,
      required: t.required,
      position: i,
    });
    draft.createRelationship(shapeId, 'DEFINES', typeId);
    t.properties.forEach((p, j) => {
      const propId = draft.createNode(['PropertyDef'], {
        shape_id: shapeId,
        entity_label: t.label,
        name: p.name,
        type: p.type,
        enum: p.enum ?? null,
        description: p.description ?? null,
        position: j,
      });
      draft.createRelationship(typeId, 'HAS_PROPERTY', propId);
    });
  });
  def.relationship_types.forEach((r, i) => {
    const relId = draft.createNode(['RelationshipType'], {
      shape_id: shapeId,
      type: r.type,
      from: r.from,
      to: r.to,
      cardinality: r.cardinality,
      temporal: r.temporal ?? null,
      patterns: r.patterns ?? [],
      description: r.description ?? null,
      position: i,
    });
    draft.createRelationship(shapeId, 'DEFINES', relId);
  });
  if (supersedes) draft.createRelationship(shapeId, 'SUPERSEDES', supersedes);
  return { id: shapeId, name, version, schema_tag: schemaTag };
}

export interface ShapeRef {
  id: string;
  name: string;
  version: number;
}

/** A committed shape the project may use (built-in or its own), or null. */
export async function visibleShape(tx: Tx, projectId: string, shapeId: string): Promise<ShapeRef | null> {
  const row = await tx.one<ShapeRef>('shapes/get_shape_ref', { id: shapeId, project_id: projectId });
  return row ? { id: row.id, name: row.name, version: row.version } : null;
}

/** A relationship type a visible shape declares, with the phrases its definition gives. */
export interface DeclaredRelationshipType {
  type: string;
  patterns: string[];
  builtin: boolean;
  /** The definition holds one object at a time (temporal single_valued_at_a_time, else its cardinality). */
  one_at_a_time: boolean;
}

/** The relationship types of every committed, unretired shape visible to the project (built-in or its own). */
export async function declaredRelationshipTypes(tx: Tx, projectId: string): Promise<DeclaredRelationshipType[]> {
  return tx.run<DeclaredRelationshipType>('shapes/declared_relationship_types', {
    project_id: projectId,
    builtin_ids: BUILTIN_SHAPE_ID_LIST,
  });
}

/** The shape named at field, or the one 400 that says it is not visible to this project. */
export async function requireVisibleShape(
  tx: Tx,
  projectId: string,
  shapeId: string,
  field: string,
): Promise<ShapeRef> {
  const shape = await visibleShape(tx, projectId, shapeId);
  if (!shape) throw invalid(field, `no shape ${shapeId} is visible to this project`);
  return shape;
}

/** A shape holding a name in the project's view (built-in, committed or staged), or null. */
export interface ShapeHolder {
  id: string;
  builtin: boolean;
  pending: boolean;
  delta_id: string | null;
}

export async function shapeHoldingName(tx: Tx, projectId: string, name: string): Promise<ShapeHolder | null> {
  const row = await tx.one<ShapeHolder>('shapes/name_taken', {
    name,
    project_id: projectId,
    builtin_ids: BUILTIN_SHAPE_ID_LIST,
  });
  return row
    ? { id: row.id, builtin: row.builtin === true, pending: row.pending === true, delta_id: row.delta_id ?? null }
    : null;
}

/** The newest version above `version` of the project's shape lineage `name` (committed or staged), or null. */
export async function newerShapeVersion(
  tx: Tx,
  projectId: string,
  name: string,
  version: number,
): Promise<(ShapeHolder & { version: number }) | null> {
  const row = await tx.one<ShapeHolder & { version: number }>('shapes/newer_version', {
    project_id: projectId,
    name,
    version,
  });
  return row
    ? {
        id: row.id,
        version: row.version,
        builtin: false,
        pending: row.pending === true,
        delta_id: row.delta_id ?? null,
      }
    : null;
}

/** A page of the shapes the project sees, by name and version (limit + 1 rows, for the keyset page). */
export async function listShapes(
  graph: Graph,
  projectId: string,
  filter: {
    name: string | null;
    status: string | null;
    latest: boolean;
    after: { n: string; v: number; i: string } | null;
    limit: number;
  },
): Promise<Props[]> {
  return graph.read((tx) =>
    tx.run('shapes/list', {
      project_id: projectId,
      builtin_ids: BUILTIN_SHAPE_ID_LIST,
      name: filter.name,
      status: filter.status,
      latest: filter.latest,
      after_name: filter.after?.n ?? null,
      after_version: filter.after?.v ?? null,
      after_id: filter.after?.i ?? null,
      limit: filter.limit + 1,
    }),
  );
}
