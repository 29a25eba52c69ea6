// Rules a shape definition must keep beyond its JSON Schema: labels and relationship types that
// the engine does not own, no duplicates, identity and required naming declared properties, enums
// only on strings, relationship ends naming types of the shape. Every problem is reported with the
// JSON pointer of its field, all at once.
import { ApiError, type FieldProblem } from '../errors/catalogue.js';
import { RESERVED_LABELS } from '../deltas/draft.js';
import { INTERNAL_PROPS } from '../deltas/props.js';
import {
  ANY_ENTITY,
  MEMORY_LABEL,
  type EntityTypeDef,
  type PropertyDef,
  type RelationshipTypeDef,
  type ShapeDef,
} from './types.js';

/** The one list of labels the engine owns (src/deltas/draft.ts): a shape may not define them. */
export { RESERVED_LABELS };
/** Relationship types the engine uses between its own records and shapes. */
export const RESERVED_TYPES = new Set([
  'HAS_CHANGE',
  'TARGET',
  'FROM',
  'TO',
  'IN_PROJECT',
  'HAD_RELATIONSHIP',
  'USES_SHAPE',
  'USES_SOURCE',
  'DEFINES',
  'HAS_PROPERTY',
  'SUPERSEDES',
  'PROPOSES',
  'HAS_MAPPING',
]);
/** Properties the engine sets on every node made through a shape. */
export const ENGINE_PROPERTIES = new Set([
  ...INTERNAL_PROPS,
  'id',
  'normalized_name',
  'type',
  'shape_id',
  'created_at',
  'updated_at',
]);

export interface EntityTypeInput {
  label: string;
  description?: string;
  properties: PropertyDef[];
  identity?: string;
  required?: string[];
}

export interface DefinitionInput {
  description?: string;
  entity_types: EntityTypeInput[];
  relationship_types?: RelationshipTypeDef[];
  orphans_allowed?: string[];
}

export type Definition = Pick<ShapeDef, 'entity_types' | 'relationship_types' | 'orphans_allowed'> & {
  description?: string;
};

/** Fills defaults (identity name, required [identity], cardinality many_to_many) and checks every rule. */
/** Distinct relationship type names one shape or bridge version may define. */
export const MAX_RELATIONSHIP_TYPES = 200;

export function checkDefinition(input: DefinitionInput, at = '/body'): Definition {
  const problems: FieldProblem[] = [];
  const labels = new Map<string, number>();
  const entityTypes: EntityTypeDef[] = input.entity_types.map((t, i) => {
    const field = `${at}/entity_types/${i}`;
    if (RESERVED_LABELS.has(t.label))
      problems.push({ field: `${field}/label`, reason: `${t.label} is a label the service owns` });
    const first = labels.get(t.label);
    if (first !== undefined)
      problems.push({ field: `${field}/label`, reason: `duplicates ${at}/entity_types/${first}/label (${t.label})` });
    else labels.set(t.label, i);
    problems.push(...checkProperties(t, field));
    const identity = t.identity ?? 'name';
    const declared = new Map(t.properties.map((p) => [p.name, p]));
    const identityDef = declared.get(identity);
    if (!identityDef)
      problems.push({ field: `${field}/identity`, reason: `${identity} is not a declared property of ${t.label}` });
    else if (identityDef.type !== 'string')
      problems.push({
        field: `${field}/identity`,
        reason: `${identity} must be a string property to identify instances`,
      });
    const required = t.required ?? [identity];
    required.forEach((name, j) => {
      if (!declared.has(name))
        problems.push({ field: `${field}/required/${j}`, reason: `${name} is not a declared property of ${t.label}` });
    });
    return {
      label: t.label,
      ...(t.description !== undefined ? { description: t.description } : {}),
      properties: t.properties,
      required,
      identity,
    };
  });
  const seenRels = new Map<string, number>();
  const known = (end: string) => labels.has(end) || end === ANY_ENTITY || end === MEMORY_LABEL;
  const relationshipTypes = (input.relationship_types ?? []).map((r, i) => {
    const field = `${at}/relationship_types/${i}`;
    if (RESERVED_TYPES.has(r.type))
      problems.push({ field: `${field}/type`, reason: `${r.type} is a relationship type the service owns` });
    for (const end of ['from', 'to'] as const) {
      if (!known(r[end]))
        problems.push({
          field: `${field}/${end}`,
          reason: `${r[end]} is not an entity type of this shape (nor Entity or Memory)`,
        });
    }
    const key = `${r.type} ${r.from} ${r.to}`;
    const first = seenRels.get(key);
    if (first !== undefined)
      problems.push({
        field: `${field}/type`,
        reason: `duplicates ${at}/relationship_types/${first} (${r.type} from ${r.from} to ${r.to})`,
      });
    else seenRels.set(key, i);
    return { ...r, cardinality: r.cardinality ?? 'many_to_many', patterns: r.patterns ?? [] };
  });
  // Every relationship type name is a database-wide token that Neo4j never reclaims and all tenants
  // share, so one shape or bridge version may introduce only so many (docs/security.md).
  const typeNames = new Set(relationshipTypes.map((r) => r.type));
  if (typeNames.size > MAX_RELATIONSHIP_TYPES)
    problems.push({
      field: `${at}/relationship_types`,
      reason:
        `defines ${typeNames.size} distinct relationship types; at most ${MAX_RELATIONSHIP_TYPES} per shape or ` +
        'bridge version (narrow a bridge with options.include or options.exclude)',
    });
  const orphans = input.orphans_allowed ?? [];
  orphans.forEach((label, i) => {
    if (!labels.has(label))
      problems.push({ field: `${at}/orphans_allowed/${i}`, reason: `${label} is not an entity type of this shape` });
  });
  if (problems.length > 0) {
    const first = problems[0]!;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    throw new ApiError('invalid_request', `${first.field.replace(/^\/body\//, '')}: ${first.reason}${more}`, {
      fields: problems,
    });
  }
  return {
    ...(input.description !== undefined ? { description: input.description } : {}),
    entity_types: entityTypes,
    relationship_types: relationshipTypes,
    orphans_allowed: orphans,
  };
}

function checkProperties(t: EntityTypeInput, field: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const names = new Map<string, number>();
  t.properties.forEach((p, j) => {
    const at = `${field}/properties/${j}`;
    if (ENGINE_PROPERTIES.has(p.name))
      problems.push({ field: `${at}/name`, reason: `${p.name} is a property the service sets` });
    const first = names.get(p.name);
    if (first !== undefined)
      problems.push({ field: `${at}/name`, reason: `duplicates ${field}/properties/${first}/name (${p.name})` });
    else names.set(p.name, j);
    if (p.enum !== undefined && p.type !== 'string')
      problems.push({ field: `${at}/enum`, reason: `enum is allowed on string properties only, not ${p.type}` });
  });
  return problems;
}
