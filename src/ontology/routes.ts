// The Ontology part of the Ontology & Shapes area: one read of every type the project can use.
import type { Deps } from '../http/deps.js';
import { defineRoutes, route } from '../http/route.js';
import { queryActor } from '../http/records.js';
import { projectQuery } from '../http/schemas.js';
import type { JsonSchema } from '../http/route.js';
import { readOntology } from './service.js';

const shapeRef = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    version: { type: 'integer' },
    builtin: { type: 'boolean' },
  },
} as const satisfies JsonSchema;
const shapes = {
  type: 'array',
  items: shapeRef,
  description: 'The shapes that define it.',
} as const satisfies JsonSchema;

export function ontologyRoutes(deps: Deps) {
  const getOntologyAnswer = {
    type: 'object',
    properties: {
      project_id: { type: 'string' },
      shapes: { type: 'array', items: shapeRef },
      entity_types: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            label: { type: 'string' },
            description: { type: ['string', 'null'] },
            identity: { type: 'string' },
            required: { type: 'array', items: { type: 'string' } },
            properties: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  name: { type: 'string' },
                  type: { type: 'string' },
                  enum: { type: 'array', items: { type: 'string' } },
                  description: { type: 'string' },
                },
              },
            },
            shapes,
          },
        },
      },
      relationship_types: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            type: { type: 'string' },
            from: { type: 'string' },
            to: { type: 'string' },
            cardinality: { type: 'string' },
            description: { type: ['string', 'null'] },
            patterns: { type: 'array', items: { type: 'string' } },
            shapes,
          },
        },
      },
    },
  } as const;
  return defineRoutes([
    route<typeof getOntologyAnswer>({
      method: 'get',
      path: '/v1/ontology',
      operationId: 'getOntology',
      tag: 'Ontology & Shapes',
      scope: 'shapes:read',
      summary: 'Entity and relationship types across the shapes the project sees',
      description:
        "Built-in shapes and the project's latest published (not retired) versions. Each entity type (by " +
        'label) and relationship type (by type, from, to) appears once with the shapes that define it; where ' +
        "definitions differ, the project's newest shape wins and properties are merged.",
      query: projectQuery,
      status: 200,
      errors: [],
      response: getOntologyAnswer,
      handler: async (ctx) => {
        const actor = await queryActor(deps, ctx);
        const ontology = await readOntology(deps.graph, actor.projectId);
        return { body: { project_id: actor.projectId, ...ontology } };
      },
    }),
  ]);
}
