// Fits what the built-in extractor reads to the shape it extracts with: which shape label each
// general category maps to (only labels the shape has are ever emitted), and the shape's
// cardinality (a many-to-one relation type keeps one target per source, a one-to-many one
// source per target): the most confident reading wins, then the one stated first.
import type { ShapeDef } from '../shapes/types.js';
import { CATEGORIES, type Category } from './lexicon.js';

const LABELS: Record<Category, string[]> = {
  Person: ['Person', 'People', 'Human'],
  Organization: ['Organization', 'Organisation', 'Company'],
  Place: ['Place', 'Location'],
  Product: ['Product', 'Work', 'Artifact'],
  Event: ['Event'],
  Concept: ['Concept', 'Topic', 'Idea'],
};

export function categoryLabels(shape: ShapeDef): { labelOf: Map<Category, string>; categoryOf: Map<string, Category> } {
  const labels = new Set(shape.entity_types.map((t) => t.label));
  const labelOf = new Map<Category, string>();
  const categoryOf = new Map<string, Category>();
  for (const category of CATEGORIES) {
    const label = LABELS[category].find((l) => labels.has(l));
    if (label) {
      labelOf.set(category, label);
      categoryOf.set(label, category);
    }
  }
  return { labelOf, categoryOf };
}

interface Keyed {
  type: string;
  from_key: string;
  to_key: string;
  confidence: number;
  at: number;
}

export function keepCardinality<T extends Keyed>(shape: ShapeDef, relationships: T[]): T[] {
  const cardinality = new Map(shape.relationship_types.map((r) => [r.type, r.cardinality]));
  const ranked = [...relationships].sort((a, b) => b.confidence - a.confidence || a.at - b.at);
  const used = new Set<string>();
  return ranked.filter((r) => {
    const c = cardinality.get(r.type);
    const slots = [];
    if (c === 'many_to_one' || c === 'one_to_one') slots.push(`${r.type}\u0000from\u0000${r.from_key}`);
    if (c === 'one_to_many' || c === 'one_to_one') slots.push(`${r.type}\u0000to\u0000${r.to_key}`);
    if (slots.some((s) => used.has(s))) return false;
    for (const s of slots) used.add(s);
    return true;
  });
}
