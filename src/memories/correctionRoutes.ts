// Corrections of the Memories area: PATCH, DELETE, supersede and history. Each write is a governed
// write (delta of origin correction): apply false stages it for review, revert restores.
import type { Deps } from '../http/deps.js';
import { defineRoutes, type JsonSchema, route } from '../http/route.js';
import { bodyActor, queryActor, queryActorOf } from '../http/records.js';
import { bodyOf } from '../http/app.js';
import {
  obj,
  projectIdField,
  projectQuery,
  idParams,
  governedWriteSchema,
  type ObjectSchema,
} from '../http/schemas.js';
import { actorFor } from '../auth/actor.js';
import { governedWriteFields, governedWriteStatus, recordWriteAnswer } from '../deltas/result.js';
import { historySchema, historyView } from '../deltas/views.js';
import { closeMemory, deleteMemory, memoryHistory, patchMemory, supersedeMemory } from './corrections.js';
import { MEMORY_SHAPE_ID } from './service.js';
import { entityRef, episodeField, memoryItem, MEMORY_KINDS, observedAtField, VALID_FROM, VALID_TO } from './schemas.js';

const nullable = <const S extends JsonSchema>(schema: S) => ({ oneOf: [schema, { type: 'null' }] }) as const;
const PATCH_FIELDS = [
  'content',
  'kind',
  'subject',
  'predicate',
  'object',
  'forget_after',
  'forget_reason',
  'valid_from',
  'valid_to',
  'episode',
  'observed_at',
] as const;

const patchFields = {
  content: { type: 'string', minLength: 1, maxLength: 10000 },
  kind: { enum: [...MEMORY_KINDS] },
  subject: nullable(entityRef),
  predicate: nullable({ type: 'string', minLength: 1, maxLength: 100 }),
  object: nullable(entityRef),
  forget_after: nullable({ type: 'string', format: 'date-time' }),
  forget_reason: nullable({ type: 'string', maxLength: 2000 }),
  valid_from: nullable({ type: 'string', format: 'date-time', description: VALID_FROM }),
  valid_to: nullable({ type: 'string', format: 'date-time', description: VALID_TO }),
  episode: nullable(episodeField),
  observed_at: observedAtField,
  apply: { type: 'boolean', default: true },
  project_id: projectIdField,
} as const;

/** At least one of the fields (handlers read the type of the fields alone: the anyOf adds no field). */
const patchBody = obj(patchFields, [], {
  anyOf: PATCH_FIELDS.map((f) => ({ required: [f] })),
  description: `At least one of ${PATCH_FIELDS.join(', ')}; null clears an optional field.`,
});

const supersedeBody = obj(
  {
    by: {
      description:
        'The memory that replaces this one: the id of a committed memory of the project, or a new memory ' +
        '(created in the same delta).',
      oneOf: [{ type: 'string', minLength: 1, maxLength: 64 }, memoryItem],
    },
    reason: { type: 'string', minLength: 1, maxLength: 2000 },
    shape_id: {
      type: 'string',
      maxLength: 64,
      description: 'Shape of a new memory; default the built-in memory shape.',
    },
    apply: { type: 'boolean', default: true },
    project_id: projectIdField,
  },
  ['by', 'reason'],
);

const closeBody = obj({
  valid_to: {
    type: 'string',
    format: 'date-time',
    description:
      'When the fact stopped holding; default now. Not before its valid_from, and before any valid_to it has.',
  },
  reason: { type: 'string', minLength: 1, maxLength: 2000, description: 'Recorded in the delta summary.' },
  apply: { type: 'boolean', default: true },
  project_id: projectIdField,
});

const deleteQuery = obj({ project_id: projectIdField, apply: { type: 'boolean', default: true } });
const writeResponse = governedWriteSchema({ memory_id: { type: 'string' } });

export function memoryCorrectionRoutes(deps: Deps) {
  const supersedeMemoryAnswer = governedWriteSchema({
    memory_id: { type: 'string' },
    superseded_by: { type: 'string' },
  });
  const memoryHistoryAnswer = historySchema('memory_id');
  return defineRoutes([
    route<typeof writeResponse>({
      method: 'patch',
      path: '/v1/memories/:id',
      operationId: 'correctMemory',
      tag: 'Memories',
      scope: 'memories:write',
      summary: 'Correct a committed memory through one delta (origin correction)',
      description:
        'Sets the given fields; null clears forget_after, forget_reason, predicate, subject or object. ' +
        'Changing subject, predicate or object replaces the HAS_SUBJECT / HAS_OBJECT links, and with valid_from ' +
        'or valid_to the fact edge (docs/facts.md); valid time only on a fact, decision or preference. episode moves ' +
        'it to the episode of that key (null: out of any) and observed_at re-times it; both relink the episodes ' +
        'when applied (docs/episodes.md). apply false ' +
        'stages the correction; revert restores the previous values and links. 404 for a memory that is not ' +
        'committed in the project.',
      params: idParams,
      body: patchBody,
      status: 200,
      errors: ['not_found', 'conflict'],
      response: writeResponse,
      handler: async (ctx) => {
        const { apply, project_id, ...patch } = bodyOf<ObjectSchema<typeof patchFields, readonly []>>(ctx);
        const actor = await actorFor(deps, ctx, project_id, 'body');
        const outcome = await patchMemory(deps, actor, ctx.params.id!, patch, apply);
        return recordWriteAnswer(actor, outcome, 'memory_id', ctx.params.id!);
      },
    }),
    route<typeof writeResponse>({
      method: 'post',
      path: '/v1/memories/:id/close',
      operationId: 'closeMemory',
      tag: 'Memories',
      scope: 'memories:write',
      summary: 'Close a fact: it stops holding at valid_to (one delta, origin correction)',
      description:
        "Sets the memory's valid_to and its fact edge's (docs/facts.md); the memory stays readable and is found " +
        'by as_of before then. Only a fact, decision or preference (400 otherwise, or when valid_to is before its ' +
        'valid_from or not before the valid_to it already has). Revert restores the open interval. ' +
        'The contradictions ' +
        'check proposes this correction when two single-valued facts overlap.',
      params: idParams,
      body: closeBody,
      idempotent: true,
      status: 200,
      errors: ['not_found', 'conflict'],
      response: writeResponse,
      handler: async (ctx) => {
        const { apply, project_id, ...input } = bodyOf<typeof closeBody>(ctx);
        const actor = await actorFor(deps, ctx, project_id, 'body');
        const outcome = await closeMemory(deps, actor, ctx.params.id!, input, apply);
        return recordWriteAnswer(actor, outcome, 'memory_id', ctx.params.id!);
      },
    }),
    route<typeof writeResponse>({
      method: 'delete',
      path: '/v1/memories/:id',
      operationId: 'deleteMemory',
      tag: 'Memories',
      scope: 'memories:write',
      summary: 'Delete a committed memory through one delta (origin correction)',
      description:
        'The memory, its links and its fact edge go; revert of the delta restores them. ' +
        'apply=false stages the deletion ' +
        '(the preflight audit warns when a committed briefing or context pack selected the memory).',
      params: idParams,
      query: deleteQuery,
      status: 200,
      errors: ['not_found', 'conflict'],
      response: writeResponse,
      handler: async (ctx) => {
        const { query: q, actor } = await queryActorOf<typeof deleteQuery>(deps, ctx);
        const outcome = await deleteMemory(deps, actor, ctx.params.id!, q.apply);
        return recordWriteAnswer(actor, outcome, 'memory_id', ctx.params.id!);
      },
    }),
    route<typeof supersedeMemoryAnswer>({
      method: 'post',
      path: '/v1/memories/:id/supersede',
      operationId: 'supersedeMemory',
      tag: 'Memories',
      scope: 'memories:write',
      summary: 'Record that another memory supersedes this one: (by)-[:SUPERSEDES {reason}]->(this)',
      description:
        'Acknowledges a contradiction instead of leaving it standing (the contradictions check no longer ' +
        'reports the pair). by is a committed memory id or a new memory created in the same delta. id in the ' +
        'answer is the superseding memory. A superseded fact, decision or preference stops holding when the new ' +
        "one starts: its valid_to (and its fact edge's) becomes the new memory's valid_from, or now when that has " +
        'none; revert restores it. Superseded memories stay readable and are found by as_of.',
      params: idParams,
      body: supersedeBody,
      idempotent: true,
      status: 201,
      errors: ['not_found', 'conflict'],
      response: supersedeMemoryAnswer,
      handler: async (ctx) => {
        const { body, actor } = await bodyActor<typeof supersedeBody>(deps, ctx);
        const outcome = await supersedeMemory(
          deps,
          actor,
          ctx.params.id!,
          { by: body.by, reason: body.reason },
          body.apply,
          body.shape_id ?? MEMORY_SHAPE_ID,
        );
        return {
          status: governedWriteStatus(outcome),
          body: {
            ...governedWriteFields(actor, outcome, outcome.byId),
            memory_id: ctx.params.id!,
            superseded_by: outcome.byId,
          },
        };
      },
    }),
    route<typeof memoryHistoryAnswer>({
      method: 'get',
      path: '/v1/memories/:id/history',
      operationId: 'memoryHistory',
      tag: 'Memories',
      scope: 'memories:read',
      summary: 'The deltas that touched a memory, oldest first',
      description:
        'Creation, corrections, links and deletion, each delta with the operations it made on the memory ' +
        '(ops). Works for a deleted memory too. 404 when no delta of the project touched the id.',
      params: idParams,
      query: projectQuery,
      status: 200,
      errors: ['not_found'],
      response: memoryHistoryAnswer,
      handler: async (ctx) => {
        const actor = await queryActor(deps, ctx);
        const rows = await memoryHistory(deps, actor, ctx.params.id!);
        return { body: { memory_id: ctx.params.id!, deltas: historyView(rows) } };
      },
    }),
  ]);
}
