// What a bridge version changes in its shape: entity types and their properties added, removed or
// changed (type or enum), and relationship types added, removed or changed (cardinality).
import type { Definition } from '../shapes/definition.js';
import type { PropertyDef } from '../shapes/types.js';

export interface PropertyChange {
  name: string;
  from: { type: string; enum: string[] | null };
  to: { type: string; enum: string[] | null };
}

export type DefinitionDiff = {
  types: {
    added: string[];
    removed: string[];
    changed: { label: string; properties: { added: string[]; removed: string[]; changed: PropertyChange[] } }[];
  };
  relationships: {
    added: string[];
    removed: string[];
    changed: { relationship: string; from: string; to: string }[];
  };
};

const sorted = (xs: Iterable<string>): string[] => [...xs].sort();
const shapeOf = (p: PropertyDef) => ({ type: p.type, enum: p.enum ? [...p.enum] : null });

export function diffDefinitions(
  before: Pick<Definition, 'entity_types' | 'relationship_types'>,
  after: Pick<Definition, 'entity_types' | 'relationship_types'>,
): DefinitionDiff {
  const oldTypes = new Map(before.entity_types.map((t) => [t.label, t]));
  const newTypes = new Map(after.entity_types.map((t) => [t.label, t]));
  const changed: DefinitionDiff['types']['changed'] = [];
  for (const label of sorted(newTypes.keys())) {
    const o = oldTypes.get(label);
    if (!o) continue;
    const op = new Map(o.properties.map((p) => [p.name, p]));
    const np = new Map(newTypes.get(label)!.properties.map((p) => [p.name, p]));
    const props = {
      added: sorted([...np.keys()].filter((n) => !op.has(n))),
      removed: sorted([...op.keys()].filter((n) => !np.has(n))),
      changed: sorted([...np.keys()].filter((n) => op.has(n)))
        .filter((n) => JSON.stringify(shapeOf(op.get(n)!)) !== JSON.stringify(shapeOf(np.get(n)!)))
        .map((n) => ({ name: n, from: shapeOf(op.get(n)!), to: shapeOf(np.get(n)!) })),
    };
    if (props.added.length + props.removed.length + props.changed.length > 0)
      changed.push({ label, properties: props });
  }
  const key = (r: { type: string; from: string; to: string }) => `${r.type} ${r.from}->${r.to}`;
  const oldRels = new Map(before.relationship_types.map((r) => [key(r), r.cardinality]));
  const newRels = new Map(after.relationship_types.map((r) => [key(r), r.cardinality]));
  return {
    types: {
      added: sorted([...newTypes.keys()].filter((l) => !oldTypes.has(l))),
      removed: sorted([...oldTypes.keys()].filter((l) => !newTypes.has(l))),
      changed,
    },
    relationships: {
      added: sorted([...newRels.keys()].filter((k) => !oldRels.has(k))),
      removed: sorted([...oldRels.keys()].filter((k) => !newRels.has(k))),
      changed: sorted([...newRels.keys()].filter((k) => oldRels.has(k) && oldRels.get(k) !== newRels.get(k))).map(
        (k) => ({ relationship: k, from: oldRels.get(k)!, to: newRels.get(k)! }),
      ),
    },
  };
}
