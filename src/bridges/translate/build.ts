// Builds the proposal from classified source types: labels and property names by the naming rules,
// inline objects flattened (owner.login → owner_login), references as HAS_<FIELD> relationships
// (many-to-one; one-to-many for arrays), identities (id, else a hint, else the first required
// string), *_id fields proposed as inferred relationships, and everything else listed as unmapped.
import type { DefinitionInput } from '../../shapes/definition.js';
import type { Cardinality } from '../../shapes/types.js';
import { labelFor, propertyFor, relationshipTypeFor, snakeCase } from './names.js';
import type { SourceField, SourceModel, SourceType } from './source.js';
import type {
  IdentitySource,
  Proposal,
  ProposedProperty,
  ProposedRelationship,
  ProposedType,
  ProposeOptions,
  ProposeResult,
  SourceFormat,
  Unmapped,
} from './types.js';

const NAME_FIELDS = ['name', 'title', 'login', 'full_name', 'display_name', 'label', 'summary', 'username'];

interface Pending {
  source: SourceType;
  type: ProposedType;
  /** Relationships before target identities are known. */
  rels: ProposedRelationship[];
}

function isStringScalar(f: SourceField | undefined): boolean {
  return f?.shape.kind === 'scalar' && f.shape.type === 'string';
}

function identityOf(t: SourceType, options: ProposeOptions): { path: string | null; source: IdentitySource } {
  const top = new Map(t.fields.map((f) => [f.name, f]));
  if (top.get('id')?.shape.kind === 'scalar') return { path: 'id', source: 'id' };
  const hint = options.identity_hints?.[t.name];
  if (hint && top.get(hint)?.shape.kind === 'scalar') return { path: hint, source: 'hint' };
  const required = t.fields.find((f) => t.required.has(f.name) && isStringScalar(f));
  return required ? { path: required.name, source: 'required' } : { path: null, source: 'none' };
}

function nameOf(t: SourceType, options: ProposeOptions): string | null {
  const top = new Map(t.fields.map((f) => [f.name, f]));
  const hint = options.name_hints?.[t.name];
  if (hint && top.get(hint)?.shape.kind === 'scalar') return hint;
  return NAME_FIELDS.find((n) => isStringScalar(top.get(n))) ?? null;
}

function cardinalityOf(many: boolean, direction: 'OUT' | 'IN' | undefined): Cardinality {
  if (direction === 'IN') return many ? 'many_to_many' : 'one_to_many';
  return many ? 'one_to_many' : 'many_to_one';
}

/** One label per source type: its name by the naming rules, numbered when two names give the same label. */
function uniqueLabels(model: SourceModel): Map<string, string> {
  const labels = new Map<string, string>();
  const used = new Set<string>();
  for (const t of model.types) {
    let label = labelFor(t.name);
    for (let n = 2; used.has(label); n++) label = `${labelFor(t.name)}${n}`;
    used.add(label);
    labels.set(t.name, label);
  }
  return labels;
}

/** A source type's properties (inline objects flattened) and its reference relationships; the rest goes to unmapped. */
function walkFields(
  source: SourceType,
  label: string,
  labels: Map<string, string>,
  unmapped: Unmapped[],
): { properties: ProposedProperty[]; rels: ProposedRelationship[] } {
  const properties: ProposedProperty[] = [];
  const rels: ProposedRelationship[] = [];
  const walk = (fields: SourceField[], pathPrefix: string, namePrefix: string) => {
    for (const f of fields) {
      const path = `${pathPrefix}${f.name}`;
      const shape = f.shape;
      if (shape.kind === 'unmapped') unmapped.push({ pointer: f.pointer, reason: shape.reason });
      else if (shape.kind === 'inline') walk(shape.fields, `${path}.`, `${namePrefix}${f.name}_`);
      else if (shape.kind === 'scalar') {
        properties.push({
          name: propertyFor(`${namePrefix}${f.name}`),
          type: shape.type,
          ...(shape.enum ? { enum: shape.enum } : {}),
          path,
          source_pointer: f.pointer,
        });
      } else {
        for (const target of shape.targets) {
          const to = labels.get(target);
          if (!to) {
            unmapped.push({ pointer: f.pointer, reason: `references ${target}, which is not a proposed type` });
            continue;
          }
          const [from, end] = shape.direction === 'IN' ? [to, label] : [label, to];
          rels.push({
            type: relationshipTypeFor(`${namePrefix}${f.name}`, shape.relType),
            from,
            to: end,
            cardinality: cardinalityOf(shape.many, shape.direction),
            field: path,
            source_pointer: f.pointer,
            inferred: false,
            target_identity_path: target,
            direction: shape.direction === 'IN' ? 'in' : 'out',
          });
        }
      }
    }
  };
  walk(source.fields, '', '');
  return { properties, rels };
}

/** The proposed entity type of one source type, with its relationships before target identities are known. */
function proposeType(
  source: SourceType,
  labels: Map<string, string>,
  options: ProposeOptions,
  unmapped: Unmapped[],
): Pending {
  const label = labels.get(source.name)!;
  const identity = identityOf(source, options);
  const { properties, rels } = walkFields(source, label, labels, unmapped);
  // The identity becomes the string external_id every mapped entity carries.
  const idProp = properties.find((p) => p.path === identity.path && p.name === 'external_id');
  if (idProp) {
    idProp.type = 'string';
    delete idProp.enum;
  } else {
    properties.unshift({
      name: 'external_id',
      type: 'string',
      path: identity.path ?? '',
      source_pointer: identity.path ? `${source.pointer}/properties/${identity.path}` : source.pointer,
    });
  }
  const seen = new Set<string>();
  for (const p of properties) {
    let name = p.name;
    for (let n = 2; seen.has(name); n++) name = `${p.name}_${n}`;
    p.name = name;
    seen.add(name);
  }
  const required = [
    'external_id',
    ...source.fields
      .filter((f) => source.required.has(f.name) && f.shape.kind === 'scalar')
      .map((f) => properties.find((p) => p.path === f.name)!.name),
  ];
  const type: ProposedType = {
    label,
    source_name: source.name,
    source_pointer: source.pointer,
    identity_path: identity.path,
    identity_source: identity.source,
    name_path: nameOf(source, options),
    properties,
    required: [...new Set(required)],
  };
  return { source, type, rels };
}

/** The relationships of all types, with target identities, plus the inferred *_id ones; duplicates go to unmapped. */
function relationshipsOf(pending: Pending[], unmapped: Unmapped[]): ProposedRelationship[] {
  const bySource = new Map(pending.map((p) => [p.source.name, p.type]));
  const byStem = new Map(
    pending.flatMap((p) => [
      [snakeCase(p.source.name), p.type],
      [snakeCase(p.type.label), p.type],
    ]),
  );
  const relationships: ProposedRelationship[] = [];
  const relKeys = new Set<string>();
  const addRel = (r: ProposedRelationship) => {
    const key = `${r.type} ${r.from} ${r.to}`;
    if (relKeys.has(key)) return unmapped.push({ pointer: r.source_pointer, reason: `duplicates relationship ${key}` });
    relKeys.add(key);
    relationships.push(r);
  };
  for (const p of pending) {
    for (const r of p.rels)
      addRel({ ...r, target_identity_path: bySource.get(r.target_identity_path!)?.identity_path ?? null });
    // customer_id → Customer's identity: proposed, marked inferred.
    for (const f of p.source.fields) {
      const m = /^(.+)_id$/.exec(snakeCase(f.name));
      const target = m ? byStem.get(m[1]!) : undefined;
      if (!m || !target || f.shape.kind !== 'scalar' || target.identity_source === 'none' || f.name === 'id') continue;
      const type = relationshipTypeFor(m[1]!);
      if (relKeys.has(`${type} ${p.type.label} ${target.label}`)) continue;
      addRel({
        type,
        from: p.type.label,
        to: target.label,
        cardinality: 'many_to_one',
        field: f.name,
        source_pointer: f.pointer,
        inferred: true,
        target_identity_path: null,
        direction: 'out',
      });
    }
  }
  return relationships;
}

/** Sorted by pointer, then reason, without repeats. */
function sortedUnique(unmapped: Unmapped[]): Unmapped[] {
  unmapped.sort((a, b) =>
    a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0,
  );
  return unmapped.filter(
    (u, i) => i === 0 || u.pointer !== unmapped[i - 1]!.pointer || u.reason !== unmapped[i - 1]!.reason,
  );
}

export function buildProposal(format: SourceFormat, model: SourceModel, options: ProposeOptions): ProposeResult {
  const unmapped: Unmapped[] = [...model.unmapped];
  const labels = uniqueLabels(model);
  const pending = model.types.map((source) => proposeType(source, labels, options, unmapped));
  const relationships = relationshipsOf(pending, unmapped);
  const proposal: Proposal = { format, entity_types: pending.map((p) => p.type), relationship_types: relationships };
  return { proposal, unmapped: sortedUnique(unmapped) };
}

/**
 * The shape definition a proposal stands for (identity external_id, every property and relationship; no orphan rule).
 */
export function proposalToDefinition(proposal: Proposal, description: string): DefinitionInput {
  return {
    description,
    entity_types: proposal.entity_types.map((t) => ({
      label: t.label,
      properties: t.properties.map((p) => ({ name: p.name, type: p.type, ...(p.enum ? { enum: p.enum } : {}) })),
      identity: 'external_id',
      required: t.required,
    })),
    relationship_types: proposal.relationship_types.map((r) => ({
      type: r.type,
      from: r.from,
      to: r.to,
      cardinality: r.cardinality,
    })),
    // An API's records are facts by identity, not mentions: a user with no issue yet is no orphan.
    orphans_allowed: proposal.entity_types.map((t) => t.label),
  };
}
