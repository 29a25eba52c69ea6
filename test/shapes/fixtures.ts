// A small project shape used across the shapes tests: two entity types and two relationships.
export const GENERAL_SHAPE_ID = '5e1f0000-0000-4000-8000-000000000002';
export const MEMORY_SHAPE_ID = '5e1f0000-0000-4000-8000-000000000001';

export function crmDefinition(extra: Record<string, unknown> = {}) {
  return {
    description: 'Customers and deals',
    entity_types: [
      {
        label: 'Customer',
        description: 'A buying organization',
        properties: [
          { name: 'name', type: 'string' },
          { name: 'tier', type: 'string', enum: ['gold', 'silver'] },
          { name: 'seats', type: 'integer' },
        ],
        required: ['name', 'tier'],
      },
      {
        label: 'Deal',
        properties: [
          { name: 'name', type: 'string' },
          { name: 'amount', type: 'number' },
          { name: 'closes_on', type: 'date' },
        ],
      },
    ],
    relationship_types: [
      { type: 'BUYS', from: 'Customer', to: 'Deal', cardinality: 'one_to_many', patterns: ['buys', 'signed'] },
      { type: 'MENTIONS', from: 'Memory', to: 'Entity' },
    ],
    orphans_allowed: ['Deal'],
    ...extra,
  };
}
