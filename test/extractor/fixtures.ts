// A general-purpose shape and a paragraph shared by the extraction tests, so each test states
// only the behaviour it checks.
import type { ShapeDef } from '../../src/shapes/types.js';

const named = (label: string, description: string) => ({
  label,
  description,
  properties: [{ name: 'name', type: 'string' as const }],
  required: ['name'],
  identity: 'name',
});

export const generalShape: ShapeDef = {
  id: 'shape-general',
  name: 'general',
  version: 1,
  entity_types: [
    named('Person', 'A human individual'),
    named('Organization', 'A company, institution or agency'),
    named('Place', 'A city, region or country'),
    named('Product', 'A product, project, tool or machine someone made'),
    named('Event', 'A conference, launch or meeting'),
    named('Concept', 'An idea, theory or method'),
  ],
  relationship_types: [
    {
      type: 'WORKS_FOR',
      from: 'Person',
      to: 'Organization',
      cardinality: 'many_to_one',
      patterns: ['works for', 'employed by', 'joined'],
    },
    {
      type: 'LOCATED_IN',
      from: 'Organization',
      to: 'Place',
      cardinality: 'many_to_one',
      patterns: ['based in', 'located in', 'headquartered in'],
    },
    {
      type: 'CREATED',
      from: 'Person',
      to: 'Product',
      cardinality: 'many_to_many',
      patterns: ['created', 'built', 'designed'],
    },
    { type: 'PART_OF', from: 'Concept', to: 'Concept', cardinality: 'many_to_many' },
  ],
};

/** Only people and products: no Organization, no Place. */
export const narrowShape: ShapeDef = {
  ...generalShape,
  id: 'shape-narrow',
  entity_types: generalShape.entity_types.filter((t) => t.label === 'Person' || t.label === 'Product'),
  relationship_types: generalShape.relationship_types.filter((r) => r.type === 'CREATED'),
};

export const paragraph = [
  'Ada Lovelace works for Analytical Engines Ltd. The company is headquartered in London.',
  'Later, Ada designed the Difference Engine with Charles Babbage.',
  'Charles Babbage joined Microsoft in Seattle, Washington, and Lovelace met Tim Cook from Apple Inc. in Paris.',
  'The Apollo project was presented at the Web Summit conference, and the Lambda Calculus concept is part of the Computation Theory concept.',
].join(' ');
