// JSON Schemas of the Ontology & Shapes area: the definition a client sends (create, new version)
// and the shape it reads back. Structure is checked here by ajv; rules across fields (identity
// declared, from/to known, no duplicates) by definition.ts.
import type { JsonSchema } from '../http/route.js';
import { obj, projectIdField, stringSet } from '../http/schemas.js';
import { ENGINE_PROPERTIES, RESERVED_LABELS, RESERVED_TYPES } from './definition.js';
import { HANDLER_RULE } from '../http/validation.js';

export const LABEL_PATTERN = '^[A-Z][A-Za-z0-9]*$';
export const REL_TYPE_PATTERN = '^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$';
export const PROPERTY_PATTERN = '^[a-z][a-z0-9_]*$';
export const SHAPE_NAME_PATTERN = '^[a-z][a-z0-9_-]*$';
export const PROPERTY_TYPES = ['string', 'number', 'integer', 'boolean', 'date', 'datetime'] as const;
export const CARDINALITIES = ['one_to_one', 'one_to_many', 'many_to_one', 'many_to_many'] as const;

// These rules are published here and checked by definition.ts (x-checked-by-handler), so that a bad
// definition gets every problem in one answer, those JSON Schema cannot state included.
const notOneOf = (values: Set<string>, reason: string) =>
  ({
    not: { enum: [...values].sort() },
    'x-reason': reason,
    [HANDLER_RULE]: true,
  }) as const satisfies JsonSchema;
const label = {
  type: 'string',
  pattern: LABEL_PATTERN,
  maxLength: 64,
  description: 'PascalCase Neo4j label: Person',
} as const satisfies JsonSchema;
const ownLabel = {
  ...label,
  allOf: [notOneOf(RESERVED_LABELS, 'is a label the service owns')],
} as const satisfies JsonSchema;
const relType = {
  type: 'string',
  pattern: REL_TYPE_PATTERN,
  maxLength: 64,
  description: 'UPPER_SNAKE relationship type: WORKS_FOR',
  allOf: [notOneOf(RESERVED_TYPES, 'is a relationship type the service owns')],
} as const satisfies JsonSchema;
const propertyName = {
  type: 'string',
  pattern: PROPERTY_PATTERN,
  maxLength: 64,
  description: 'snake_case property name',
} as const satisfies JsonSchema;
const ownPropertyName = {
  ...propertyName,
  allOf: [notOneOf(ENGINE_PROPERTIES, 'is a property the service sets')],
} as const satisfies JsonSchema;
const description = { type: 'string', maxLength: 2000 } as const satisfies JsonSchema;

/** strict: what a client may send (no engine-owned names); read: what built-in shapes may hold too. */
const propertyDef = (strict: boolean) =>
  obj(
    {
      name: strict ? ownPropertyName : propertyName,
      type: { enum: [...PROPERTY_TYPES] },
      description,
      enum: { ...stringSet(200, 200), description: 'Allowed values; string properties only.' },
    },
    ['name', 'type'],
    {
      allOf: [
        {
          if: { required: ['enum'] },
          then: {
            properties: {
              type: {
                const: 'string',
                'x-reason': 'must be string when enum is given (enum is allowed on string properties only)',
              },
            },
          },
          [HANDLER_RULE]: true,
        },
      ],
    },
  );

const entityTypeSchema = (strict: boolean) =>
  obj(
    {
      label: strict ? ownLabel : label,
      description,
      properties: { type: 'array', minItems: 1, maxItems: 100, items: propertyDef(strict) },
      identity: {
        ...propertyName,
        description: 'The string property that identifies an instance within a project. Default name.',
      },
      required: {
        type: 'array',
        maxItems: 100,
        uniqueItems: true,
        items: propertyName,
        description: 'Default: [identity].',
      },
    },
    ['label', 'properties'],
  );
const entityType = entityTypeSchema(true);
const entityTypeRead = entityTypeSchema(false);

const relationshipType = obj(
  {
    type: relType,
    from: { ...label, description: 'An entity label of this shape, or Entity (any entity) or Memory.' },
    to: { ...label, description: 'An entity label of this shape, or Entity (any entity) or Memory.' },
    cardinality: { enum: [...CARDINALITIES], default: 'many_to_many' },
    temporal: {
      enum: ['single_valued_at_a_time', 'many'],
      description:
        'How facts of this type hold over time (docs/facts.md): single_valued_at_a_time (one at a time: an ' +
        'employer, a residence) or many (languages, skills). Two facts of one subject with this type and ' +
        'different objects contradict only when single_valued_at_a_time and their validity overlaps. Absent: ' +
        'read from cardinality (many_to_one and one_to_one are one at a time).',
    },
    description,
    patterns: {
      type: 'array',
      maxItems: 50,
      uniqueItems: true,
      items: { type: 'string', minLength: 1, maxLength: 100 },
      description: 'Phrases that signal the relationship in text.',
    },
  },
  ['type', 'from', 'to'],
);

const definitionFields = {
  description,
  entity_types: {
    type: 'array',
    minItems: 1,
    maxItems: 100,
    items: entityType,
    description:
      'Rules checked beyond this schema, each a 400 naming its field: labels are unique within the shape; ' +
      'property names are unique within an entity type; identity (default name) names a declared string ' +
      'property and each required entry a declared property; relationship from and to name an entity type of ' +
      'this shape (or Entity or Memory); no two relationship types share type, from and to; orphans_allowed ' +
      'names entity types of this shape.',
  },
  relationship_types: { type: 'array', maxItems: 200, items: relationshipType, default: [] },
  orphans_allowed: {
    type: 'array',
    maxItems: 100,
    uniqueItems: true,
    items: label,
    default: [],
    description: 'Entity labels of this shape that may have no relationship.',
  },
  project_id: projectIdField,
  apply: { type: 'boolean', default: true, description: 'false leaves the delta staged for review.' },
} as const satisfies Record<string, JsonSchema>;

export const createShapeBody = obj(
  {
    name: {
      type: 'string',
      pattern: SHAPE_NAME_PATTERN,
      minLength: 1,
      maxLength: 64,
      description: 'Lowercase slug, unique in the project (and not a built-in name); all versions share it.',
    },
    ...definitionFields,
  },
  ['name', 'entity_types'],
);

export const versionBody = obj(definitionFields, ['entity_types']);

export const shapeActionBody = obj({
  project_id: projectIdField,
  apply: { type: 'boolean', default: true },
});

const nullableString = { type: ['string', 'null'] } as const satisfies JsonSchema;

/** What a shape's full read and its summary in a list both say first. */
const shapeHead = {
  id: { type: 'string' },
  name: { type: 'string' },
  version: { type: 'integer' },
  status: { enum: ['draft', 'published', 'retired'] },
  builtin: { type: 'boolean' },
  project_id: nullableString,
  description: nullableString,
  schema_tag: nullableString,
} as const satisfies Record<string, JsonSchema>;

export const shapeSchema = {
  type: 'object',
  description: 'A shape with its full definition (ShapeDef).',
  properties: {
    ...shapeHead,
    entity_types: { type: 'array', items: entityTypeRead },
    relationship_types: { type: 'array', items: relationshipType },
    orphans_allowed: { type: 'array', items: { type: 'string' } },
    supersedes: { ...nullableString, description: 'id of the version this one replaced' },
    superseded_by: { ...nullableString, description: 'id of the committed version that replaced this one' },
    created_at: nullableString,
    updated_at: nullableString,
  },
} as const satisfies JsonSchema;

export const shapeSummarySchema = {
  type: 'object',
  properties: {
    ...shapeHead,
    entity_type_labels: { type: 'array', items: { type: 'string' } },
    relationship_type_names: { type: 'array', items: { type: 'string' } },
    superseded_by: nullableString,
    created_at: nullableString,
    updated_at: nullableString,
  },
} as const satisfies JsonSchema;
