// JSON Schemas of the Bridge area: the source (inline document or URL), options, the proposal a
// client may edit, the map call, and what the area answers.
import type { JsonSchema } from '../http/route.js';
import { obj, projectIdField, stringSet } from '../http/schemas.js';
import {
  CARDINALITIES,
  LABEL_PATTERN,
  PROPERTY_PATTERN,
  PROPERTY_TYPES,
  REL_TYPE_PATTERN,
  SHAPE_NAME_PATTERN,
} from '../shapes/schemas.js';
import { SOURCE_FORMATS } from './translate/types.js';

const typeNames = {
  type: 'array',
  maxItems: 1000,
  uniqueItems: true,
  items: { type: 'string', minLength: 1, maxLength: 200 },
} as const satisfies JsonSchema;
const hints = {
  type: 'object',
  maxProperties: 1000,
  additionalProperties: { type: 'string', minLength: 1, maxLength: 200 },
  propertyNames: { minLength: 1, maxLength: 200 },
} as const satisfies JsonSchema;

export const optionsSchema = obj({
  include: { ...typeNames, description: 'Only these source type names become types (default: all found).' },
  exclude: {
    ...typeNames,
    description: 'These source type names never become types; references to them are listed as unmapped.',
  },
  max_depth: {
    type: 'integer',
    minimum: 0,
    maximum: 5,
    default: 2,
    description: 'How deep inline objects are flattened into properties (owner.login → owner_login).',
  },
  identity_hints: {
    ...hints,
    description: 'Source type name → the field that identifies its records (used when the type has no id).',
  },
  name_hints: { ...hints, description: 'Source type name → the field that names its records.' },
});

export const sourceSchema = {
  type: 'object',
  properties: {
    format: { enum: [...SOURCE_FORMATS] },
    document: {
      type: ['object', 'string'],
      description:
        'The description itself: a JSON object (openapi: with openapi 3.0.x or 3.1.x; json_schema; ' +
        'graphql_introspection: with __schema or data) or GraphQL SDL text (graphql_sdl). Only local #/ ' +
        'references are followed. SDL that does not parse is a 400 naming the document.',
    },
    url: {
      type: 'string',
      format: 'uri',
      pattern: '^https?://',
      maxLength: 2048,
      description: 'Fetched through the SSRF-guarded fetcher (no private addresses, size and time caps).',
    },
  },
  required: ['format'],
  oneOf: [
    { required: ['document'], not: { required: ['url'] } },
    { required: ['url'], not: { required: ['document'] } },
  ],
  // The document's form follows the format: SDL text, or a JSON object (an OpenAPI one names its version).
  allOf: [
    {
      if: { properties: { format: { const: 'graphql_sdl' } } },
      then: { properties: { document: { type: 'string', minLength: 1, pattern: '\\S' } } },
    },
    {
      if: { properties: { format: { enum: ['openapi', 'json_schema', 'graphql_introspection'] } } },
      then: { properties: { document: { type: 'object' } } },
    },
    {
      if: { properties: { format: { const: 'openapi' } } },
      then: {
        properties: {
          document: { required: ['openapi'], properties: { openapi: { type: 'string', pattern: '^3\\.[01]\\.' } } },
        },
      },
    },
    {
      if: { properties: { format: { const: 'graphql_introspection' } } },
      then: { properties: { document: { anyOf: [{ required: ['__schema'] }, { required: ['data'] }] } } },
    },
  ],
  additionalProperties: false,
  description: 'Exactly one of document and url.',
} as const satisfies JsonSchema;

const proposedProperty = obj(
  {
    name: { type: 'string', pattern: PROPERTY_PATTERN, maxLength: 64 },
    type: { enum: [...PROPERTY_TYPES] },
    enum: stringSet(200, 200),
    path: {
      type: 'string',
      maxLength: 500,
      description: 'Dotted path of the value in a record; empty for the identity of a type without one.',
    },
    source_pointer: { type: 'string', maxLength: 2000 },
  },
  ['name', 'type', 'path'],
);

const proposedType = obj(
  {
    label: { type: 'string', pattern: LABEL_PATTERN, maxLength: 64 },
    source_name: { type: 'string', minLength: 1, maxLength: 200 },
    source_pointer: { type: 'string', maxLength: 2000 },
    identity_path: { type: ['string', 'null'], maxLength: 500 },
    identity_source: { enum: ['id', 'hint', 'required', 'none'] },
    name_path: { type: ['string', 'null'], maxLength: 500 },
    properties: { type: 'array', minItems: 1, maxItems: 200, items: proposedProperty },
    required: {
      type: 'array',
      maxItems: 200,
      uniqueItems: true,
      items: { type: 'string', pattern: PROPERTY_PATTERN, maxLength: 64 },
    },
  },
  ['label', 'source_name', 'identity_path', 'properties', 'required'],
);

const proposedRelationship = obj(
  {
    type: { type: 'string', pattern: REL_TYPE_PATTERN, maxLength: 64 },
    from: { type: 'string', pattern: LABEL_PATTERN, maxLength: 64 },
    to: { type: 'string', pattern: LABEL_PATTERN, maxLength: 64 },
    cardinality: { enum: [...CARDINALITIES] },
    field: { type: 'string', minLength: 1, maxLength: 500 },
    source_pointer: { type: 'string', maxLength: 2000 },
    inferred: { type: 'boolean' },
    target_identity_path: { type: ['string', 'null'], maxLength: 500 },
    direction: { enum: ['out', 'in'] },
  },
  ['type', 'from', 'to', 'cardinality', 'field'],
);

export const proposalSchema = obj(
  {
    format: { enum: [...SOURCE_FORMATS] },
    entity_types: { type: 'array', minItems: 1, maxItems: 1000, items: proposedType },
    relationship_types: {
      type: 'array',
      maxItems: 2000,
      items: proposedRelationship,
      description:
        'At most 200 distinct relationship type names per bridge version (a 400 past that): type names are ' +
        'database-wide and never reclaimed.',
    },
  },
  ['entity_types', 'relationship_types'],
);

const unmappedSchema = {
  type: 'array',
  items: obj({ pointer: { type: 'string' }, reason: { type: 'string' } }, ['pointer', 'reason']),
} as const satisfies JsonSchema;
const bridgeName = {
  type: 'string',
  pattern: SHAPE_NAME_PATTERN,
  minLength: 1,
  maxLength: 64,
  description: 'Lowercase slug, unique in the project.',
} as const satisfies JsonSchema;

export const proposeBody = obj({ project_id: projectIdField, source: sourceSchema, options: optionsSchema }, [
  'source',
]);
export const createBridgeBody = obj(
  {
    project_id: projectIdField,
    name: bridgeName,
    source: sourceSchema,
    options: optionsSchema,
    apply: {
      type: 'boolean',
      default: false,
      description: 'Default false: the proposed shape and mapping wait for review in one delta.',
    },
  },
  ['name', 'source'],
);
/** The fields of a new version (the body below adds that exactly one of source and proposal is given). */
export const versionBridgeFields = obj({
  project_id: projectIdField,
  source: sourceSchema,
  options: optionsSchema,
  proposal: proposalSchema,
  apply: { type: 'boolean', default: false },
});
export const versionBridgeBody = {
  ...versionBridgeFields,
  anyOf: [{ required: ['source'] }, { required: ['proposal'] }],
  not: { required: ['source', 'proposal'] },
  description: 'A new source (re-proposed) or an edited proposal, not both.',
} as const satisfies JsonSchema;
export const mapBody = obj(
  {
    project_id: projectIdField,
    record_type: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'A source type name of the bridge (or its label).',
    },
    records: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'object' } },
    apply: { type: 'boolean', default: false, description: 'Default false: the map delta waits for review.' },
    dry_run: { type: 'boolean', default: false, description: 'Count what would change; stage nothing.' },
  },
  ['record_type', 'records'],
);

const mappingSchema = { type: 'object', additionalProperties: true } as const satisfies JsonSchema;
export const bridgeSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    version: { type: 'integer' },
    status: { enum: ['applied', 'staged'] },
    delta_id: { type: 'string' },
    shape_id: { type: 'string' },
    source_format: { enum: [...SOURCE_FORMATS] },
    source_digest: { type: 'string' },
    source_url: { type: ['string', 'null'] },
    options: { type: 'object' },
    mappings: { type: 'array', items: mappingSchema },
    unmapped: unmappedSchema,
    type_count: { type: 'integer' },
    relationship_count: { type: 'integer' },
    created_at: { type: ['string', 'null'] },
    updated_at: { type: ['string', 'null'] },
  },
} as const satisfies JsonSchema;
/** A proposal as answered: the same fields, and possibly no type at all (a source with nothing to map). */
const proposalAnswer = {
  type: 'object',
  properties: {
    format: { enum: [...SOURCE_FORMATS] },
    entity_types: { type: 'array' },
    relationship_types: { type: 'array' },
  },
} as const satisfies JsonSchema;

export const proposeResponse = {
  type: 'object',
  properties: { proposal: proposalAnswer, unmapped: unmappedSchema, source_digest: { type: 'string' } },
} as const satisfies JsonSchema;
export { unmappedSchema, proposalAnswer };
