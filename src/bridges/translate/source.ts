// The common form every source format is read into before a proposal is built: named record types
// with classified fields. Readers (JSON Schema / OpenAPI, GraphQL) only classify; build.ts names,
// flattens and links.
import type { PropertyType } from '../../shapes/types.js';

export type FieldShape =
  | { kind: 'scalar'; type: PropertyType; enum?: string[] }
  | { kind: 'inline'; fields: SourceField[] }
  | {
      kind: 'ref';
      /** Source type names the field points to (several for a discriminated union). */
      targets: string[];
      many: boolean;
      /** A relationship type the source declares (GraphQL @relationship). */
      relType?: string;
      /** IN: the relationship points from the target to this type. */
      direction?: 'OUT' | 'IN';
    }
  | { kind: 'unmapped'; reason: string };

export interface SourceField {
  name: string;
  pointer: string;
  shape: FieldShape;
}

export interface SourceType {
  name: string;
  pointer: string;
  fields: SourceField[];
  required: Set<string>;
}

export interface SourceModel {
  types: SourceType[];
  /** Found while reading, before any type is built (unions without discriminator, excluded targets ...). */
  unmapped: { pointer: string; reason: string }[];
}
