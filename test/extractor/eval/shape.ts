// The built-in general shape as seeded by cypher/schema/110_seed_general_shape.cypher, so the
// evaluation runs the extractors exactly as a graph_extraction loop over that shape would.
import type { EntityTypeDef, ShapeDef } from '../../../src/shapes/types.js';

const type = (label: string, description: string, more: string[] = []): EntityTypeDef => ({
  label,
  description,
  properties: [{ name: 'name', type: 'string' }, ...more.map((name) => ({ name, type: 'string' as const }))],
  required: ['name'],
  identity: 'name',
});

export const generalShape: ShapeDef = {
  id: '5e1f0000-0000-4000-8000-000000000002',
  name: 'general',
  version: 1,
  entity_types: [
    type('Person', 'A human individual.', ['role', 'email', 'description']),
    type('Organization', 'A company, institution, agency or team.', ['industry', 'website', 'description']),
    {
      ...type('Place', 'A city, region, country, address or site.', ['country']),
      properties: [
        { name: 'name', type: 'string' },
        { name: 'kind', type: 'string', enum: ['city', 'region', 'country', 'address', 'site', 'other'] },
        { name: 'country', type: 'string' },
      ],
    },
    type('Product', 'A product, project, tool, work or machine someone made.', ['category', 'description']),
    type('Event', 'A conference, launch, meeting or incident.', ['description']),
    type('Concept', 'An idea, topic, theory or method.', ['description']),
  ],
  relationship_types: [
    {
      type: 'WORKS_FOR',
      from: 'Person',
      to: 'Organization',
      cardinality: 'many_to_many',
      patterns: ['works for', 'employed by', 'joined'],
      description: 'A person works or worked for an organization.',
    },
    {
      type: 'LOCATED_IN',
      from: 'Organization',
      to: 'Place',
      cardinality: 'many_to_one',
      patterns: ['based in', 'located in', 'headquartered in'],
      description: 'Where an organization is based.',
    },
    {
      type: 'CREATED',
      from: 'Person',
      to: 'Product',
      cardinality: 'many_to_many',
      patterns: ['created', 'built', 'designed'],
      description: 'A person made a product.',
    },
    {
      type: 'PART_OF',
      from: 'Concept',
      to: 'Concept',
      cardinality: 'many_to_one',
      patterns: ['part of', 'belongs to'],
      description: 'A concept is part of a broader one.',
    },
    {
      type: 'PARTICIPATED_IN',
      from: 'Person',
      to: 'Event',
      cardinality: 'many_to_many',
      patterns: ['attended', 'participated in'],
      description: 'A person took part in an event.',
    },
  ],
};

/**
 * The general shape with its relationship types renamed, so the built-in extractor has only the
 * shape's own patterns to go by (as for a project's custom shape): a second, weaker operating
 * point that gives the quality/F1 correlation real variance. RENAMED maps the names back.
 */
export const RENAMED: Record<string, string> = {
  EMPLOYMENT: 'WORKS_FOR',
  SITE: 'LOCATED_IN',
  AUTHORSHIP: 'CREATED',
  SUBTOPIC: 'PART_OF',
  ATTENDANCE: 'PARTICIPATED_IN',
};
const renamedFrom = Object.fromEntries(Object.entries(RENAMED).map(([k, v]) => [v, k]));
export const customShape: ShapeDef = {
  ...generalShape,
  id: 'custom-general',
  relationship_types: generalShape.relationship_types.map((r) => ({ ...r, type: renamedFrom[r.type] ?? r.type })),
};
