// Validation of instances against a shape, for the loops (extracted entities) and preflight: each
// entity type becomes an ajv JSON Schema (property types, enums, required), and relationship
// types say which (type, from, to) triples the shape allows.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { addFormats } from '../shared/ajvFormats.js';
import { ENGINE_PROPERTIES } from './definition.js';
import {
  ANY_ENTITY,
  MEMORY_LABEL,
  type EntityTypeDef,
  type PropertyDef,
  type RelationshipTypeDef,
  type ShapeDef,
} from './types.js';

export { loadShape } from './store.js';

export interface InstanceProblem {
  /** JSON pointer into the properties object ("/role"), or "" for the entity as a whole. */
  field: string;
  reason: string;
}

export interface CompiledShape {
  shape: ShapeDef;
  /** The entity type of a label, if the shape defines it. */
  entityType(label: string): EntityTypeDef | undefined;
  /** Every problem of an instance's properties; empty when it conforms. Undeclared properties are problems. */
  validateEntity(label: string, properties: Record<string, unknown>): InstanceProblem[];
  /** Whether the shape allows a relationship of this type from a node of one label to another. */
  relationshipAllowed(type: string, fromLabel: string, toLabel: string): boolean;
  /** The relationship types matching (type, from, to), with their cardinality. */
  relationshipTypes(type: string, fromLabel: string, toLabel: string): RelationshipTypeDef[];
}

/** The JSON Schema of one property's values. */
function propertySchema(p: PropertyDef): Record<string, unknown> {
  switch (p.type) {
    case 'string':
      return p.enum ? { type: 'string', enum: p.enum } : { type: 'string' };
    case 'number':
      return { type: 'number' };
    case 'integer':
      return { type: 'integer' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
  }
}

/** The JSON Schema an instance of the entity type must satisfy (engine-set properties are allowed). */
export function entitySchema(t: EntityTypeDef): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const name of ENGINE_PROPERTIES) properties[name] = {};
  properties.name = { type: 'string' };
  for (const p of t.properties) properties[p.name] = propertySchema(p);
  return { type: 'object', properties, required: t.required, additionalProperties: false };
}

/**
 * Values as callers hold them (Date, the {date} wrapper of deltas/props, ISO strings) in JSON form; nulls mean absent.
 */
function asJson(properties: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(properties)) {
    if (v === null || v === undefined) continue;
    if (v instanceof Date) out[k] = v.toISOString();
    else if (typeof v === 'object' && !Array.isArray(v) && 'date' in v && Object.keys(v).length === 1)
      out[k] = String((v as { date: unknown }).date);
    else out[k] = v;
  }
  return out;
}

function problemOf(e: ErrorObject, label: string): InstanceProblem {
  if (e.keyword === 'required') return { field: `/${String(e.params.missingProperty)}`, reason: 'is required' };
  if (e.keyword === 'additionalProperties')
    return { field: `/${String(e.params.additionalProperty)}`, reason: `is not a property of ${label}` };
  if (e.keyword === 'enum')
    return { field: e.instancePath, reason: `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}` };
  return { field: e.instancePath, reason: e.message ?? 'is invalid' };
}

const endMatches = (declared: string, actual: string): boolean =>
  declared === actual || (declared === ANY_ENTITY && actual !== MEMORY_LABEL);

/** Compiles a shape once; the result validates any number of instances. */
export function compileShape(shape: ShapeDef): CompiledShape {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const types = new Map(shape.entity_types.map((t) => [t.label, t]));
  const validators = new Map<string, ValidateFunction>();
  const validatorOf = (t: EntityTypeDef): ValidateFunction => {
    let v = validators.get(t.label);
    if (!v) {
      v = ajv.compile(entitySchema(t));
      validators.set(t.label, v);
    }
    return v;
  };
  const relationshipTypes = (type: string, fromLabel: string, toLabel: string) =>
    shape.relationship_types.filter(
      (r) => r.type === type && endMatches(r.from, fromLabel) && endMatches(r.to, toLabel),
    );
  return {
    shape,
    entityType: (label) => types.get(label),
    validateEntity(label, properties) {
      const t = types.get(label);
      if (!t)
        return [{ field: '', reason: `${label} is not an entity type of shape ${shape.name} (v${shape.version})` }];
      const validate = validatorOf(t);
      if (validate(asJson(properties))) return [];
      return (validate.errors ?? []).map((e) => problemOf(e, label));
    },
    relationshipAllowed: (type, fromLabel, toLabel) => relationshipTypes(type, fromLabel, toLabel).length > 0,
    relationshipTypes,
  };
}
