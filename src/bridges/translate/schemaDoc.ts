// Reading a JSON Schema (or an OpenAPI document's schemas) without ever leaving the document: local
// "#/..." references only (a remote one is a 400 naming its pointer), cycles cut by a visited set,
// allOf merged, null branches of anyOf/oneOf and ["x", "null"] types treated as nullable.
import { ApiError } from '../../errors/catalogue.js';

export type Schema = Record<string, unknown>;

export interface Located {
  schema: Schema;
  pointer: string;
  /** The schema's name when it sits at a named place (#/components/schemas/X, #/$defs/X, #/definitions/X). */
  name: string | null;
}

export interface ObjectView {
  properties: { name: string; schema: Schema; pointer: string }[];
  required: Set<string>;
  additional: boolean;
}

const NAMED_PLACE = /^\/(?:components\/schemas|\$defs|definitions)\/([^/]+)$/;

const isRecord = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

function decodeSegment(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}

export function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export class SchemaDocument {
  /** @param field where the document sits in the request, for error pointers (/body/source/document). */
  constructor(
    readonly root: Schema,
    private readonly field: string,
  ) {}

  /** The schema a local reference points to; a remote or broken reference is a 400 naming where it is. */
  resolveRef(ref: string, at: string): Located {
    if (!ref.startsWith('#')) {
      throw new ApiError('invalid_request', `Only local references (#/...) are followed; ${at}/$ref is ${ref}.`, {
        fields: [{ field: `${this.field}${at}/$ref`, reason: `remote reference ${ref} is not followed` }],
        pointer: `${at}/$ref`,
      });
    }
    const pointer = ref.slice(1);
    let node: unknown = this.root;
    for (const segment of pointer.split('/').slice(1)) {
      node =
        isRecord(node) || Array.isArray(node) ? (node as Record<string, unknown>)[decodeSegment(segment)] : undefined;
    }
    if (!isRecord(node)) {
      throw new ApiError('invalid_request', `${at}/$ref points to ${ref}, which is not a schema in the document.`, {
        fields: [{ field: `${this.field}${at}/$ref`, reason: `${ref} does not resolve` }],
        pointer: `${at}/$ref`,
      });
    }
    const named = NAMED_PLACE.exec(pointer);
    return { schema: node, pointer, name: named ? decodeSegment(named[1]!) : null };
  }

  /** Follows $ref chains (a cycle of pure references stops where it closes). */
  deref(schema: Schema, pointer: string): Located {
    let current: Located = { schema, pointer, name: null };
    const seen = new Set<string>();
    while (typeof current.schema.$ref === 'string' && !seen.has(current.pointer)) {
      seen.add(current.pointer);
      current = this.resolveRef(current.schema.$ref, current.pointer);
    }
    return current;
  }

  /** The schema without its null alternatives: ["string","null"], anyOf/oneOf [X, {type: null}]. */
  nonNull(located: Located): Located {
    const s = located.schema;
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = s[key];
      if (!Array.isArray(branches)) continue;
      const kept = branches.map((b, i) => ({ b, i })).filter(({ b }) => !(isRecord(b) && b.type === 'null'));
      if (kept.length === 1 && kept.length < branches.length) {
        const only = kept[0]!;
        return this.nonNull(this.deref(only.b as Schema, `${located.pointer}/${key}/${only.i}`));
      }
    }
    return located;
  }

  /** The scalar JSON type of a schema, ignoring "null"; undefined when none or several. */
  static scalarType(s: Schema): string | undefined {
    const t = s.type;
    if (typeof t === 'string') return t;
    if (Array.isArray(t)) {
      const kept = t.filter((x) => x !== 'null');
      return kept.length === 1 ? String(kept[0]) : undefined;
    }
    if (Array.isArray(s.enum) && s.enum.length > 0)
      return typeof s.enum[0] === 'number' ? 'number' : typeof s.enum[0] === 'boolean' ? 'boolean' : 'string';
    if (s.const !== undefined) return typeof s.const;
    return undefined;
  }

  static isObject(s: Schema): boolean {
    const t = s.type;
    return (
      t === 'object' || (Array.isArray(t) && t.includes('object')) || isRecord(s.properties) || Array.isArray(s.allOf)
    );
  }

  /** Properties and required names of an object schema, allOf parts merged (each part once). */
  objectView(located: Located, visited = new Set<string>()): ObjectView {
    const view: ObjectView = { properties: [], required: new Set(), additional: false };
    if (visited.has(located.pointer)) return view;
    visited.add(located.pointer);
    const s = located.schema;
    if (Array.isArray(s.allOf)) {
      s.allOf.forEach((part, i) => {
        if (!isRecord(part)) return;
        const inner = this.objectView(this.deref(part, `${located.pointer}/allOf/${i}`), visited);
        for (const p of inner.properties) if (!view.properties.some((q) => q.name === p.name)) view.properties.push(p);
        inner.required.forEach((r) => view.required.add(r));
        view.additional ||= inner.additional;
      });
    }
    if (isRecord(s.properties)) {
      for (const [name, prop] of Object.entries(s.properties)) {
        if (!isRecord(prop)) continue;
        const entry = { name, schema: prop, pointer: `${located.pointer}/properties/${escapeSegment(name)}` };
        const at = view.properties.findIndex((q) => q.name === name);
        if (at >= 0) view.properties[at] = entry;
        else view.properties.push(entry);
      }
    }
    if (Array.isArray(s.required)) s.required.forEach((r) => typeof r === 'string' && view.required.add(r));
    if (isRecord(s.additionalProperties) || s.additionalProperties === true) view.additional = true;
    return view;
  }
}
