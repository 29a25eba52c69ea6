// The Deltas area: list and read deltas with their changes; apply, reject and revert them.
import type { Deps } from '../http/deps.js';
import { defineRoutes, type ApiContext, type JsonSchema, type RouteSpec, route } from '../http/route.js';
import { bodyActor, listRoute, queryActorOf } from '../http/records.js';
import { type Actor } from '../auth/actor.js';
import { ApiError } from '../errors/catalogue.js';
import { cursorPage, obj, projectIdField, cursorQuery, idParams } from '../http/schemas.js';
import { applyDelta, rejectDelta, revertDelta } from './service.js';
import { preflightApplyGuard } from '../preflight/service.js';
import { changeSchema, changeView, deltaSchema, deltaView } from './views.js';
import { deltaWithChanges, listDeltas } from './store.js';

async function readDelta(deps: Deps, actor: Actor, deltaId: string, changesLimit: number) {
  return deps.graph.read(async (tx) => {
    const { delta, changes } = await deltaWithChanges(tx, actor.projectId, deltaId, changesLimit);
    return {
      ...deltaView(delta),
      changes: changes.slice(0, changesLimit).map(changeView),
      changes_truncated: changes.length > changesLimit,
    };
  });
}

const deltaWithChangesSchema = {
  ...deltaSchema,
  properties: {
    ...deltaSchema.properties,
    changes: { type: 'array', items: changeSchema },
    changes_truncated: { type: 'boolean' },
  },
} as const satisfies JsonSchema;
const deltaAnswer = { type: 'object', properties: { delta: deltaWithChangesSchema } } as const;
const actionBody = <const X extends Record<string, JsonSchema> = Record<never, never>>(extra: X = {} as X) =>
  obj({ project_id: projectIdField, reason: { type: 'string', maxLength: 2000 }, ...extra });
/** apply's body: reject's and revert's are the same without override_reason. */
const applyBody = actionBody({
  override_reason: {
    type: 'string',
    minLength: 3,
    maxLength: 2000,
    description: 'Apply despite preflight error findings; recorded on the delta.',
  },
});
const listQuery = cursorQuery({
  status: { enum: ['staged', 'applied', 'rejected', 'reverted', 'failed'] },
  origin: {
    type: 'string',
    maxLength: 64,
    description: 'Only deltas of this origin (memory, correction, loop, connection_sync, mcp, ...).',
  },
});
const getQuery = {
  type: 'object',
  properties: {
    project_id: projectIdField,
    changes_limit: { type: 'integer', minimum: 0, maximum: 5000, default: 1000 },
  },
  additionalProperties: false,
} as const;

export function deltaRoutes(deps: Deps) {
  const act = (verb: 'apply' | 'reject' | 'revert', summary: string, description: string): RouteSpec =>
    route<typeof deltaAnswer>({
      method: 'post' as const,
      path: `/v1/deltas/:id/${verb}`,
      operationId: `${verb}Delta`,
      tag: 'Deltas',
      scope: 'deltas:apply' as const,
      summary,
      description,
      params: idParams,
      idempotent: true,
      body: verb === 'apply' ? applyBody : actionBody(),
      status: 200,
      response: deltaAnswer,
      errors: ['not_found', 'conflict'] as const,
      handler: async (ctx: ApiContext) => {
        const { body, actor } = await bodyActor<typeof applyBody>(deps, ctx);
        const id = ctx.params.id!;
        // A key whose writes stage writes for review; applying (or reverting, which applies) is a reviewer's act.
        if (actor.stageWrites && verb !== 'reject')
          throw new ApiError('forbidden', `This key's writes stage for review; it may not ${verb} deltas.`, {
            key_writes: 'stage',
          });
        if (verb === 'apply')
          await applyDelta(deps.graph, id, actor, body.override_reason ?? null, preflightApplyGuard);
        if (verb === 'reject') await rejectDelta(deps.graph, id, actor, body.reason ?? null);
        if (verb === 'revert') await revertDelta(deps.graph, id, actor, body.reason ?? null);
        return { body: { delta: await readDelta(deps, actor, id, 1000) } };
      },
    });
  const listDeltasAnswer = cursorPage('deltas', deltaSchema);
  return defineRoutes([
    listRoute<typeof listDeltasAnswer, typeof listQuery, 'deltas', 'newest'>(
      deps,
      {
        path: '/v1/deltas',
        operationId: 'listDeltas',
        tag: 'Deltas',
        scope: 'deltas:read',
        summary: 'List the deltas of a project, newest first',
        key: 'deltas',
        query: listQuery,
        response: listDeltasAnswer,
        order: 'newest',
      },
      async (actor, q, after) => {
        const rows = await deps.graph.read((tx) =>
          listDeltas(tx, actor.projectId, {
            status: q.status ?? null,
            origin: q.origin ?? null,
            after: after ? { created_at: after.c, id: after.i } : null,
            limit: q.limit,
          }),
        );
        return rows.map((delta) => deltaView(delta));
      },
      (d) => ({ c: String(d.created_at), i: String(d.id) }),
    ),
    route<typeof deltaAnswer>({
      method: 'get',
      path: '/v1/deltas/:id',
      operationId: 'getDelta',
      tag: 'Deltas',
      scope: 'deltas:read',
      summary: 'Read a delta with its changes',
      params: idParams,
      query: getQuery,
      status: 200,
      errors: ['not_found'],
      response: deltaAnswer,
      handler: async (ctx) => {
        const { query: q, actor } = await queryActorOf<typeof getQuery>(deps, ctx);
        return { body: { delta: await readDelta(deps, actor, ctx.params.id!, q.changes_limit) } };
      },
    }),
    act(
      'apply',
      'Apply a staged delta',
      'Promotes every change in one transaction. Two concurrent applies: one wins, the other gets 409. ' +
        'Refused with 409 when the preflight audit has error findings, unless override_reason is given.',
    ),
    act(
      'reject',
      'Reject a staged delta',
      'Removes the staged subgraph; the delta stays as a record with status rejected.',
    ),
    act(
      'revert',
      'Revert an applied delta',
      'Removes what it created and restores what it changed or deleted; 409 naming the later deltas that depend on it.',
    ),
  ]);
}
