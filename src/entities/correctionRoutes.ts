// The Entities area: corrections of committed domain entities (PATCH, DELETE, merge), each a governed
// write of origin correction. Reading entities stays with the Graph area.
import type { Deps } from '../http/deps.js';
import { defineRoutes, route } from '../http/route.js';
import { bodyActor, queryActor, queryActorOf } from '../http/records.js';
import { bodyOf } from '../http/app.js';
import { obj, projectIdField, projectQuery, idParams, governedWriteSchema } from '../http/schemas.js';
import { historySchema, historyView } from '../deltas/views.js';
import { actorFor } from '../auth/actor.js';
import { governedWriteFields, governedWriteStatus, recordWriteAnswer } from '../deltas/result.js';
import { ENGINE_PROPERTIES } from '../shapes/definition.js';
import { deleteEntity, entityHistory, mergeEntities, patchEntity } from './corrections.js';

const id = { type: 'string', minLength: 1, maxLength: 64 } as const;
const scalar = [{ type: 'string', maxLength: 10000 }, { type: 'number' }, { type: 'boolean' }] as const;
const propertyValue = {
  oneOf: [
    ...scalar,
    { type: 'null' },
    {
      type: 'array',
      maxItems: 100,
      items: { oneOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'boolean' }] },
    },
  ],
} as const;
const ENGINE = [...ENGINE_PROPERTIES, 'name', 'merged_ids', 'aliases'].sort();

const patchBody = obj(
  {
    name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
    type: {
      type: 'string',
      pattern: '^[A-Z][A-Za-z0-9_]{0,63}$',
      description: 'The entity type (its label), e.g. Person. Labels the service owns are refused.',
    },
    properties: {
      type: 'object',
      minProperties: 1,
      maxProperties: 50,
      propertyNames: { pattern: '^[a-z][a-z0-9_]{0,63}$', not: { enum: ENGINE } },
      additionalProperties: propertyValue,
      description: `Properties to set; null removes one. Not the service's own (${ENGINE.join(', ')}).`,
    },
    apply: { type: 'boolean', default: true },
    project_id: projectIdField,
  },
  [],
  {
    anyOf: [{ required: ['name'] }, { required: ['type'] }, { required: ['properties'] }],
    description: 'At least one of name, type, properties.',
  },
);

const mergeBody = obj(
  {
    into: id,
    from: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      uniqueItems: true,
      items: id,
      description: 'Entities merged into `into` and then deleted.',
    },
    apply: { type: 'boolean', default: true },
    project_id: projectIdField,
  },
  ['into', 'from'],
);

const deleteQuery = obj({
  project_id: projectIdField,
  apply: { type: 'boolean', default: true },
  detach: {
    type: 'boolean',
    default: false,
    description: 'Delete even when other nodes are linked to it (the links go too).',
  },
});

const entityWrite = governedWriteSchema({ entity_id: { type: 'string' } });

export function entityRoutes(deps: Deps) {
  const mergeEntitiesAnswer = governedWriteSchema({
    entity_id: { type: 'string' },
    merged_ids: { type: 'array', items: { type: 'string' } },
    moved_relationships: { type: 'integer' },
  });
  const entityHistoryAnswer = historySchema('entity_id');
  return defineRoutes([
    route<typeof entityWrite>({
      method: 'patch',
      path: '/v1/entities/:id',
      operationId: 'correctEntity',
      tag: 'Entities',
      scope: 'entities:write',
      summary: 'Correct the name, type or properties of a committed entity through one delta',
      description:
        'Only domain entities (:Entity) of the project; memories, documents, chunks and shapes have their ' +
        'own routes (404 here). A new name or type also updates the identity key: a collision with another ' +
        'entity makes the write fail (409; merge them instead). apply false stages the correction; revert ' +
        'restores values and labels.',
      params: idParams,
      body: patchBody,
      status: 200,
      errors: ['not_found', 'conflict'],
      response: entityWrite,
      handler: async (ctx) => {
        const { apply, project_id, ...patch } = bodyOf<typeof patchBody>(ctx);
        const actor = await actorFor(deps, ctx, project_id, 'body');
        const outcome = await patchEntity(deps, actor, ctx.params.id!, patch, apply);
        return recordWriteAnswer(actor, outcome, 'entity_id', ctx.params.id!);
      },
    }),
    route<typeof entityWrite>({
      method: 'delete',
      path: '/v1/entities/:id',
      operationId: 'deleteEntity',
      tag: 'Entities',
      scope: 'entities:write',
      summary: 'Delete a committed entity through one delta',
      description:
        'Refused with 409 while committed relationships link other nodes to it (details.dependant_ids, ' +
        'dependant_count, relationship_types), unless detach=true. Revert restores the entity and its ' +
        'relationships.',
      params: idParams,
      query: deleteQuery,
      status: 200,
      errors: ['not_found', 'conflict'],
      response: entityWrite,
      handler: async (ctx) => {
        const { query: q, actor } = await queryActorOf<typeof deleteQuery>(deps, ctx);
        const outcome = await deleteEntity(deps, actor, ctx.params.id!, q.detach, q.apply);
        return recordWriteAnswer(actor, outcome, 'entity_id', ctx.params.id!);
      },
    }),
    route<typeof mergeEntitiesAnswer>({
      method: 'post',
      path: '/v1/entities/merge',
      operationId: 'mergeEntities',
      tag: 'Entities',
      scope: 'entities:write',
      summary: 'Merge duplicate entities into one through one delta',
      description:
        'Each committed relationship of the from entities is recreated on into (same type, direction and ' +
        'properties; merged_from names the old end), unless into already has the same one or it would join ' +
        'two merged entities; the from entities are deleted; into records merged_ids and aliases. 404 for an ' +
        'id that is not a committed entity of the project; 400 when into is among from.',
      body: mergeBody,
      idempotent: true,
      status: 200,
      errors: ['not_found', 'conflict'],
      response: mergeEntitiesAnswer,
      handler: async (ctx) => {
        const { body, actor } = await bodyActor<typeof mergeBody>(deps, ctx);
        const outcome = await mergeEntities(deps, actor, body.into, body.from, body.apply);
        return {
          status: governedWriteStatus(outcome, 200),
          body: {
            ...governedWriteFields(actor, outcome, body.into),
            entity_id: body.into,
            merged_ids: body.from,
            moved_relationships: outcome.moved,
          },
        };
      },
    }),
    route<typeof entityHistoryAnswer>({
      method: 'get',
      path: '/v1/entities/:id/history',
      operationId: 'entityHistory',
      tag: 'Entities',
      scope: 'graph:read',
      summary: 'The deltas that touched an entity, oldest first',
      description:
        'Creation, corrections, links, merges and deletion, each delta with the operations it made on the entity ' +
        '(ops), as GET /v1/memories/{id}/history does for a memory. Works for a deleted entity too. 404 when no ' +
        'delta of the project touched the id.',
      params: idParams,
      query: projectQuery,
      status: 200,
      errors: ['not_found'],
      response: entityHistoryAnswer,
      handler: async (ctx) => {
        const actor = await queryActor(deps, ctx);
        const rows = await entityHistory(deps, actor, ctx.params.id!);
        return { body: { entity_id: ctx.params.id!, deltas: historyView(rows) } };
      },
    }),
  ]);
}
