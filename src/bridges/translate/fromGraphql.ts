// Reads a GraphQL schema (SDL, or the JSON of an introspection query) with the graphql package into
// record types: object types (not the root operation types) with scalar and enum fields as
// properties, object/interface/union fields as relationships, @relationship(type, direction) honoured.
import {
  buildASTSchema,
  buildClientSchema,
  getNamedType,
  isEnumType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
  parse,
  visit,
  Kind,
  type DocumentNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type GraphQLType,
  type IntrospectionQuery,
} from 'graphql';
import { ApiError } from '../../errors/catalogue.js';
import type { PropertyType } from '../../shapes/types.js';
import type { FieldShape, SourceField, SourceModel } from './source.js';
import type { ProposeOptions } from './types.js';

const SCALARS: Record<string, PropertyType> = {
  ID: 'string',
  String: 'string',
  Int: 'integer',
  Float: 'number',
  Boolean: 'boolean',
};

function badSource(field: string, message: string): ApiError {
  return new ApiError('invalid_request', `The GraphQL source cannot be read: ${message}`, {
    fields: [{ field, reason: message }],
  });
}

const BUILTIN_SCALARS = new Set(['ID', 'String', 'Int', 'Float', 'Boolean']);

/** Declares the scalars an SDL uses without defining (Date, DateTime ... as @neo4j/graphql SDLs do). */
function withImplicitScalars(doc: DocumentNode): DocumentNode {
  const defined = new Set<string>();
  const used = new Set<string>();
  visit(doc, {
    ObjectTypeDefinition: (n) => void defined.add(n.name.value),
    InterfaceTypeDefinition: (n) => void defined.add(n.name.value),
    UnionTypeDefinition: (n) => void defined.add(n.name.value),
    EnumTypeDefinition: (n) => void defined.add(n.name.value),
    ScalarTypeDefinition: (n) => void defined.add(n.name.value),
    InputObjectTypeDefinition: (n) => void defined.add(n.name.value),
    NamedType: (n) => void used.add(n.name.value),
  });
  const missing = [...used].filter((n) => !defined.has(n) && !BUILTIN_SCALARS.has(n)).sort();
  const scalars = missing.map(
    (name) => ({ kind: Kind.SCALAR_TYPE_DEFINITION, name: { kind: Kind.NAME, value: name } }) as const,
  );
  return { ...doc, definitions: [...doc.definitions, ...scalars] };
}

export function parseGraphqlSdl(sdl: string, field: string): GraphQLSchema {
  try {
    return buildASTSchema(withImplicitScalars(parse(sdl)), { assumeValidSDL: true });
  } catch (error) {
    throw badSource(field, error instanceof Error ? error.message : String(error));
  }
}

export function parseGraphqlIntrospection(json: unknown, field: string): GraphQLSchema {
  const data = (json as { data?: unknown })?.data ?? json;
  if (typeof data !== 'object' || data === null || !('__schema' in data))
    throw badSource(field, 'expected an introspection result with __schema (or data.__schema)');
  try {
    return buildClientSchema(data as IntrospectionQuery);
  } catch (error) {
    throw badSource(field, error instanceof Error ? error.message : String(error));
  }
}

function scalarType(name: string): PropertyType | null {
  if (SCALARS[name]) return SCALARS[name];
  if (/^(date)$/i.test(name)) return 'date';
  if (/date.?time|timestamp|instant/i.test(name)) return 'datetime';
  return null;
}

function relationshipDirective(field: GraphQLField<unknown, unknown>): { relType?: string; direction?: 'OUT' | 'IN' } {
  const directive = field.astNode?.directives?.find((d) => d.name.value === 'relationship');
  if (!directive) return {};
  const out: { relType?: string; direction?: 'OUT' | 'IN' } = {};
  for (const arg of directive.arguments ?? []) {
    const v = arg.value;
    const value = v.kind === 'StringValue' || v.kind === 'EnumValue' ? v.value : undefined;
    if (arg.name.value === 'type' && value) out.relType = value;
    if (arg.name.value === 'direction' && (value === 'IN' || value === 'OUT')) out.direction = value;
  }
  return out;
}

function classify(
  schema: GraphQLSchema,
  type: GraphQLType,
  field: GraphQLField<unknown, unknown>,
  allowed: (name: string) => boolean,
): FieldShape {
  let inner = isNonNullType(type) ? type.ofType : type;
  const many = isListType(inner);
  if (many) inner = getNamedType(inner);
  const named = getNamedType(inner);
  if (isEnumType(named)) {
    return many
      ? { kind: 'unmapped', reason: 'list of enum values (a shape property holds one value)' }
      : { kind: 'scalar', type: 'string', enum: named.getValues().map((v) => v.name) };
  }
  if (isScalarType(named)) {
    const t = scalarType(named.name);
    if (!t) return { kind: 'unmapped', reason: `custom scalar ${named.name} has no property type` };
    return many
      ? { kind: 'unmapped', reason: 'list of scalars (a shape property holds one value)' }
      : { kind: 'scalar', type: t };
  }
  const targets = isObjectType(named)
    ? [named.name]
    : isInterfaceType(named) || isUnionType(named)
      ? schema.getPossibleTypes(named).map((t) => t.name)
      : [];
  const kept = targets.filter(allowed);
  if (kept.length === 0) return { kind: 'unmapped', reason: `references ${named.name}, which is not a proposed type` };
  return { kind: 'ref', targets: kept, many, ...relationshipDirective(field) };
}

export function readGraphqlSource(schema: GraphQLSchema, options: ProposeOptions): SourceModel {
  const roots = new Set(
    [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(Boolean).map((t) => t!.name),
  );
  const allowed = (name: string) =>
    !options.exclude?.includes(name) &&
    (!options.include || options.include.length === 0 || options.include.includes(name));
  const objects = Object.values(schema.getTypeMap())
    .filter(
      (t): t is GraphQLObjectType =>
        isObjectType(t) && !t.name.startsWith('__') && !roots.has(t.name) && allowed(t.name),
    )
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const names = new Set(objects.map((o) => o.name));
  const types = objects.map((o) => {
    const fields: SourceField[] = Object.values(o.getFields()).map((f) => ({
      name: f.name,
      pointer: `/types/${o.name}/fields/${f.name}`,
      shape: classify(schema, f.type, f, (n) => names.has(n)),
    }));
    const required = new Set(
      Object.values(o.getFields())
        .filter((f) => isNonNullType(f.type))
        .map((f) => f.name),
    );
    return { name: o.name, pointer: `/types/${o.name}`, fields, required };
  });
  return { types, unmapped: [] };
}
