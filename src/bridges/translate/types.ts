// What a bridge proposes from an API description: entity types with the record paths their
// properties come from, relationship types with the record field that carries them, and what could
// not be mapped (with the JSON pointer or type.field path of each).
import type { Cardinality, PropertyType } from '../../shapes/types.js';

export const SOURCE_FORMATS = ['openapi', 'json_schema', 'graphql_sdl', 'graphql_introspection'] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

export interface ProposedProperty {
  /** snake_case property name in the graph. */
  name: string;
  type: PropertyType;
  enum?: string[];
  /** Dotted path of the value in a record ("owner.login" for a flattened inline object). */
  path: string;
  source_pointer: string;
}

export type IdentitySource = 'id' | 'hint' | 'required' | 'none';

export interface ProposedType {
  /** PascalCase label in the graph. */
  label: string;
  /** The type's name in the source (schema or GraphQL type name): the record_type of map. */
  source_name: string;
  source_pointer: string;
  /** Record path of the identity value (stored as string external_id), or null when none was found. */
  identity_path: string | null;
  identity_source: IdentitySource;
  /** Record path of the display name, or null (then the entity is named "<Label> <external_id>"). */
  name_path: string | null;
  properties: ProposedProperty[];
  /** Graph property names every record must carry. */
  required: string[];
}

export interface ProposedRelationship {
  type: string;
  from: string;
  to: string;
  cardinality: Cardinality;
  /** Record path of the field holding the target (an object, an array of objects, or an id). */
  field: string;
  source_pointer: string;
  /** Proposed from a *_id field naming another type's identity, not from a reference. */
  inferred: boolean;
  /** For a target given as an object or list of objects: the path of its identity inside it. */
  target_identity_path: string | null;
  /** out: the record holding the field is the start; in: it is the end (GraphQL direction IN). */
  direction: 'out' | 'in';
}

export interface Proposal {
  format: SourceFormat;
  entity_types: ProposedType[];
  relationship_types: ProposedRelationship[];
}

export interface Unmapped {
  pointer: string;
  reason: string;
}

export interface ProposeOptions {
  include?: string[];
  exclude?: string[];
  max_depth: number;
  /** Source type name → record field that identifies it. */
  identity_hints?: Record<string, string>;
  /** Source type name → record field that names it. */
  name_hints?: Record<string, string>;
}

export interface ProposeResult {
  proposal: Proposal;
  unmapped: Unmapped[];
}
