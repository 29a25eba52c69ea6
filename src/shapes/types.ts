// The ontology and shape model. A shape is a named, versioned selection of entity and relationship
// types, used to extract (loops) and to validate (preflight, ajv). Nodes created through a shape
// carry their entity type as a Neo4j label.

/** The built-in shapes (seeded by cypher/schema/100_ and 110_): visible to every project, never changed or deleted. */
export const MEMORY_SHAPE_ID = '5e1f0000-0000-4000-8000-000000000001';
export const GENERAL_SHAPE_ID = '5e1f0000-0000-4000-8000-000000000002';
export const BUILTIN_SHAPE_IDS: ReadonlySet<string> = new Set([MEMORY_SHAPE_ID, GENERAL_SHAPE_ID]);
/** The same ids as a list: the $builtin_ids of the statements that read the shapes a project sees. */
export const BUILTIN_SHAPE_ID_LIST: readonly string[] = [...BUILTIN_SHAPE_IDS];

export type PropertyType = 'string' | 'number' | 'integer' | 'boolean' | 'date' | 'datetime';

export interface PropertyDef {
  name: string;
  type: PropertyType;
  description?: string;
  enum?: string[];
}

export interface EntityTypeDef {
  /** Neo4j label, PascalCase: Person, Organization. */
  label: string;
  description?: string;
  properties: PropertyDef[];
  /** Properties every instance must have. */
  required: string[];
  /** The property that identifies an instance within a project (default "name"). */
  identity: string;
}

export type Cardinality = 'one_to_one' | 'one_to_many' | 'many_to_one' | 'many_to_many';

export interface RelationshipTypeDef {
  /** Neo4j relationship type, UPPER_SNAKE: WORKS_FOR. */
  type: string;
  from: string;
  to: string;
  cardinality: Cardinality;
  /** How its facts hold over time (docs/facts.md); absent: read from cardinality. */
  temporal?: 'single_valued_at_a_time' | 'many';
  description?: string;
  /** Phrases that signal the relationship in text between a "from" and a "to" mention ("works for"). */
  patterns?: string[];
}

export interface ShapeDef {
  id: string;
  name: string;
  version: number;
  description?: string;
  /** e.g. gks.memory/v1 for the memory shape. */
  schema_tag?: string;
  entity_types: EntityTypeDef[];
  relationship_types: RelationshipTypeDef[];
  /** Entity labels allowed to have no relationship at all; others are flagged as orphans by preflight. */
  orphans_allowed?: string[];
}

export type ShapeStatus = 'draft' | 'published' | 'retired';

/** A shape as stored: its definition plus where it lives and how it relates to its other versions. */
export interface ShapeRecord extends ShapeDef {
  status: ShapeStatus;
  builtin: boolean;
  /** null for built-in shapes, which every project sees. */
  project_id: string | null;
  /** The version this one replaces, and the one that replaced it (committed only). */
  supersedes: string | null;
  superseded_by: string | null;
  created_at: string | null;
  updated_at: string | null;
}

/** The special from/to values of a relationship type: any entity, or the memory node. */
export const ANY_ENTITY = 'Entity';
export const MEMORY_LABEL = 'Memory';
