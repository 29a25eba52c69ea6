// The project's ontology: every entity type and relationship type of the shapes it sees (built-in
// ones and its own latest published versions), each listed once with the shapes that define it.
// Where shapes define the same label differently, the project's newest shape speaks first and
// properties are the union, in that order.
import type { Graph } from '../db/graph.js';
import { loadShape } from '../shapes/store.js';
import { BUILTIN_SHAPE_ID_LIST, type Cardinality, type PropertyDef, type ShapeRecord } from '../shapes/types.js';

export interface ShapeRef {
  id: string;
  name: string;
  version: number;
  builtin: boolean;
}

export interface OntologyEntityType {
  label: string;
  description: string | null;
  identity: string;
  required: string[];
  properties: PropertyDef[];
  shapes: ShapeRef[];
}

export interface OntologyRelationshipType {
  type: string;
  from: string;
  to: string;
  cardinality: Cardinality;
  description: string | null;
  patterns: string[];
  shapes: ShapeRef[];
}

export interface Ontology {
  shapes: ShapeRef[];
  entity_types: OntologyEntityType[];
  relationship_types: OntologyRelationshipType[];
}

export async function readOntology(graph: Graph, projectId: string): Promise<Ontology> {
  const shapes = await graph.read(async (tx) => {
    const ids = await tx.run<{ id: string }>('ontology/visible_shapes', {
      project_id: projectId,
      builtin_ids: BUILTIN_SHAPE_ID_LIST,
    });
    const records: ShapeRecord[] = [];
    for (const row of ids) {
      const shape = await loadShape(tx, row.id, projectId);
      if (shape) records.push(shape);
    }
    return records;
  });
  return mergeShapes(shapes);
}

/** Merges shape definitions, earlier shapes taking precedence. */
export function mergeShapes(shapes: ShapeRecord[]): Ontology {
  const entities = new Map<string, OntologyEntityType>();
  const relationships = new Map<string, OntologyRelationshipType>();
  const refs: ShapeRef[] = [];
  for (const shape of shapes) {
    const ref: ShapeRef = { id: shape.id, name: shape.name, version: shape.version, builtin: shape.builtin };
    refs.push(ref);
    for (const t of shape.entity_types) {
      const known = entities.get(t.label);
      if (!known) {
        entities.set(t.label, {
          label: t.label,
          description: t.description ?? null,
          identity: t.identity,
          required: [...t.required],
          properties: [...t.properties],
          shapes: [ref],
        });
        continue;
      }
      known.shapes.push(ref);
      for (const p of t.properties) if (!known.properties.some((k) => k.name === p.name)) known.properties.push(p);
    }
    for (const r of shape.relationship_types) {
      const key = `${r.type} ${r.from} ${r.to}`;
      const known = relationships.get(key);
      if (known) {
        known.shapes.push(ref);
        continue;
      }
      relationships.set(key, {
        type: r.type,
        from: r.from,
        to: r.to,
        cardinality: r.cardinality,
        description: r.description ?? null,
        patterns: r.patterns ?? [],
        shapes: [ref],
      });
    }
  }
  const byLabel = (a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label);
  const byType = (a: OntologyRelationshipType, b: OntologyRelationshipType) =>
    a.type.localeCompare(b.type) || a.from.localeCompare(b.from) || a.to.localeCompare(b.to);
  return {
    shapes: refs,
    entity_types: [...entities.values()].sort(byLabel),
    relationship_types: [...relationships.values()].sort(byType),
  };
}
