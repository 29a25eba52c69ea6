// Reads an OpenAPI 3.0/3.1 document or a JSON Schema into record types: the object schemas that
// operations return (or the root schema), then every named object schema they reference, breadth
// first with a visited set, so recursive and mutually recursive schemas terminate.
import type { PropertyType } from '../../shapes/types.js';
import { escapeSegment, SchemaDocument, type Located, type Schema } from './schemaDoc.js';
import type { FieldShape, SourceField, SourceModel, SourceType } from './source.js';
import type { ProposeOptions } from './types.js';

const isRecord = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const JSON_MEDIA = /json/i;

interface Reader {
  doc: SchemaDocument;
  options: ProposeOptions;
  /** Named object schemas to read, by name, in discovery order. */
  queue: Located[];
  known: Set<string>;
  unmapped: { pointer: string; reason: string }[];
  /** The root schema's type name when the root itself is a record type (a "#" reference names it). */
  rootName: string | null;
}

function allowed(r: Reader, name: string): boolean {
  if (r.options.exclude?.includes(name)) return false;
  return !r.options.include || r.options.include.length === 0 || r.options.include.includes(name);
}

function enqueue(r: Reader, located: Located): void {
  if (located.name === null || r.known.has(located.name) || !allowed(r, located.name)) return;
  r.known.add(located.name);
  r.queue.push(located);
}

/** The discriminated branches of a union schema, or null when it is not one. */
function unionBranches(r: Reader, located: Located): { branches: Located[]; discriminated: boolean } | null {
  const s = located.schema;
  const key = Array.isArray(s.oneOf) ? 'oneOf' : Array.isArray(s.anyOf) ? 'anyOf' : null;
  if (!key) return null;
  const branches = (s[key] as unknown[])
    .map((b, i) => (isRecord(b) ? r.doc.deref(b, `${located.pointer}/${key}/${i}`) : null))
    .filter((b): b is Located => b !== null && b.schema.type !== 'null');
  const discriminated =
    isRecord(s.discriminator) &&
    typeof s.discriminator.propertyName === 'string' &&
    branches.every((b) => b.name !== null && SchemaDocument.isObject(b.schema));
  return { branches, discriminated };
}

/** Roots: what a response schema returns (through arrays and one level of envelope objects). */
function addRoot(r: Reader, schema: Schema, pointer: string, envelopeDepth = 1, arrays = new Set<string>()): void {
  const located = r.doc.nonNull(r.doc.deref(schema, pointer));
  const s = located.schema;
  if (s.type === 'array' && isRecord(s.items)) {
    // An array whose items refer back to it (directly or through other arrays) holds no object.
    if (arrays.has(located.pointer)) return;
    arrays.add(located.pointer);
    return addRoot(r, s.items, `${located.pointer}/items`, envelopeDepth, arrays);
  }
  const union = unionBranches(r, located);
  if (union) {
    if (union.discriminated) union.branches.forEach((b) => enqueue(r, b));
    else
      r.unmapped.push({
        pointer: located.pointer,
        reason: 'oneOf/anyOf without a discriminator: no type is proposed for it',
      });
    return;
  }
  if (!SchemaDocument.isObject(s)) return;
  if (located.name !== null) return enqueue(r, located);
  if (envelopeDepth > 0)
    for (const p of r.doc.objectView(located).properties) addRoot(r, p.schema, p.pointer, envelopeDepth - 1);
}

function scalarShape(s: Schema): FieldShape | null {
  const t = SchemaDocument.scalarType(s);
  const format = typeof s.format === 'string' ? s.format : '';
  const map: Record<string, PropertyType> = {
    integer: 'integer',
    number: 'number',
    boolean: 'boolean',
    string: 'string',
  };
  let type = t ? map[t] : undefined;
  if (!type) return null;
  if (type === 'string' && format === 'date') type = 'date';
  if (type === 'string' && format === 'date-time') type = 'datetime';
  const values = Array.isArray(s.enum) ? s.enum.filter((v): v is string => typeof v === 'string') : [];
  return type === 'string' && values.length > 0 ? { kind: 'scalar', type, enum: values } : { kind: 'scalar', type };
}

function classify(
  r: Reader,
  schema: Schema,
  pointer: string,
  depth: number,
  arrays: ReadonlySet<string> = new Set(),
): FieldShape {
  let located = r.doc.nonNull(r.doc.deref(schema, pointer));
  if (located.pointer === '' && r.rootName !== null) located = { ...located, name: r.rootName };
  const s = located.schema;
  const union = unionBranches(r, located);
  if (union) {
    if (!union.discriminated) return { kind: 'unmapped', reason: 'oneOf/anyOf without a discriminator' };
    union.branches.forEach((b) => enqueue(r, b));
    return { kind: 'ref', targets: union.branches.map((b) => b.name!).filter((n) => allowed(r, n)), many: false };
  }
  if (s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))) {
    if (!isRecord(s.items)) return { kind: 'unmapped', reason: 'array without items' };
    if (arrays.has(located.pointer)) return { kind: 'unmapped', reason: 'array whose items refer back to it' };
    const item = classify(r, s.items, `${located.pointer}/items`, depth, new Set([...arrays, located.pointer]));
    if (item.kind === 'ref' && !item.many) return { ...item, many: true };
    if (item.kind === 'scalar')
      return { kind: 'unmapped', reason: 'array of scalars (a shape property holds one value)' };
    return {
      kind: 'unmapped',
      reason: item.kind === 'unmapped' ? `array: ${item.reason}` : 'array of inline objects (no type to link to)',
    };
  }
  if (SchemaDocument.isObject(s)) {
    if (located.name !== null) {
      if (!allowed(r, located.name))
        return { kind: 'unmapped', reason: `references ${located.name}, which the options exclude` };
      enqueue(r, located);
      return { kind: 'ref', targets: [located.name], many: false };
    }
    const view = r.doc.objectView(located);
    if (view.properties.length === 0)
      return {
        kind: 'unmapped',
        reason: view.additional ? 'free-form map (additionalProperties)' : 'object without properties',
      };
    if (depth >= r.options.max_depth)
      return { kind: 'unmapped', reason: `inline object deeper than max_depth ${r.options.max_depth}` };
    return {
      kind: 'inline',
      fields: view.properties.map((p) => ({
        name: p.name,
        pointer: p.pointer,
        shape: classify(r, p.schema, p.pointer, depth + 1),
      })),
    };
  }
  return scalarShape(s) ?? { kind: 'unmapped', reason: 'no single JSON type (untyped or mixed)' };
}

function readType(r: Reader, located: Located): SourceType {
  const view = r.doc.objectView(located);
  const fields: SourceField[] = view.properties.map((p) => ({
    name: p.name,
    pointer: p.pointer,
    shape: classify(r, p.schema, p.pointer, 0),
  }));
  return { name: located.name!, pointer: located.pointer, fields, required: view.required };
}

export function readJsonSchemaSource(
  root: Schema,
  format: 'openapi' | 'json_schema',
  options: ProposeOptions,
  field: string,
): SourceModel {
  const r: Reader = {
    doc: new SchemaDocument(root, field),
    options,
    queue: [],
    known: new Set(),
    unmapped: [],
    rootName: null,
  };
  if (format === 'openapi') {
    const paths = isRecord(root.paths) ? root.paths : {};
    for (const [path, item] of Object.entries(paths)) {
      if (!isRecord(item)) continue;
      for (const [method, op] of Object.entries(item)) {
        if (!isRecord(op) || !isRecord(op.responses)) continue;
        for (const [code, response] of Object.entries(op.responses)) {
          if (!/^2/.test(code) || !isRecord(response)) continue;
          const resolved =
            typeof response.$ref === 'string'
              ? r.doc.resolveRef(response.$ref, `/paths/${path}/${method}/responses/${code}`).schema
              : response;
          const content = isRecord(resolved.content) ? resolved.content : {};
          for (const [media, body] of Object.entries(content)) {
            if (!JSON_MEDIA.test(media) || !isRecord(body) || !isRecord(body.schema)) continue;
            addRoot(
              r,
              body.schema,
              `/paths/${escapeSegment(path)}/${method}/responses/${code}/content/${escapeSegment(media)}/schema`,
            );
          }
        }
      }
    }
    // A document of components only (no operations returning objects): every object schema is a root.
    if (r.queue.length === 0 && isRecord(root.components) && isRecord(root.components.schemas)) {
      for (const name of Object.keys(root.components.schemas))
        addRoot(r, { $ref: `#/components/schemas/${escapeSegment(name)}` }, '/components', 0);
    }
  } else {
    const title = typeof root.title === 'string' && root.title.trim() !== '' ? root.title : 'Record';
    if (
      SchemaDocument.isObject(root) &&
      r.doc.objectView({ schema: root, pointer: '', name: title }).properties.length > 0
    ) {
      r.rootName = title;
      enqueue(r, { schema: root, pointer: '', name: title });
    } else {
      for (const place of ['$defs', 'definitions']) {
        const defs = root[place];
        if (isRecord(defs))
          for (const name of Object.keys(defs))
            addRoot(r, { $ref: `#/${place}/${escapeSegment(name)}` }, `/${place}`, 0);
      }
    }
  }
  const types: SourceType[] = [];
  for (let i = 0; i < r.queue.length; i++) types.push(readType(r, r.queue[i]!));
  return { types, unmapped: r.unmapped };
}
