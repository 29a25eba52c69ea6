// The Loops area (docs/loops.md, docs/api-conventions.md): start (or dry-run) a loop, read its status, events and
// checkpoints from its Temporal history, cancel it.
import type { Deps } from '../http/deps.js';
import { defineRoutes, type ApiContext, route, type RouteSpec, type TypedRouteSpec } from '../http/route.js';
import { sequencePage } from '../http/cursor.js';
import type { JSONSchema } from '../http/input.js';
import { listRoute } from '../http/records.js';
import { bodyOf, queryOf } from '../http/app.js';
import { ApiError } from '../errors/catalogue.js';
import { afterSequenceQuery, cursorPage, cursorQuery, obj, projectOnlyBody, projectQuery } from '../http/schemas.js';
import { actorFor } from '../auth/actor.js';
import type { Actor } from '../deltas/service.js';
import { isTemporalUnavailable } from '../temporal/connection.js';
import { withTimeout } from '../shared/timeout.js';
import type { Client } from '@temporalio/client';
import { loopLinks, startOrPlan } from './start.js';
import { readHistory, toCheckpoints, toLoopEvents } from './history.js';
import {
  loopRequestBody,
  loopStartSchema,
  loopStatusSchema,
  eventsSchema,
  checkpointsSchema,
  dryRunSchema,
} from './schemas.js';
import { listLoopRecords, loopRecord as loopById, type LoopProps } from './store.js';
import { isPresent } from '../graph/views.js';

const idParams = obj({ loop_id: { type: 'string', minLength: 1, maxLength: 64 } }, ['loop_id']);
const listQuery = cursorQuery({ status: { enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] } });

async function loopRecord(deps: Deps, ctx: ApiContext): Promise<{ actor: Actor; loop: LoopProps }> {
  const actor = await actorFor(
    deps,
    ctx,
    queryOf<typeof projectQuery>(ctx)?.project_id ?? bodyOf<typeof projectOnlyBody>(ctx).project_id,
    ctx.method === 'GET' ? 'query' : 'body',
  );
  return { actor, loop: await loopById(deps.graph, actor.projectId, ctx.params.loop_id!) };
}

type LoopRouteSpec<R extends JSONSchema> = Omit<TypedRouteSpec<R, never>, 'tag' | 'params' | 'handler'>;

/** A route on one loop of the project, :loop_id in its path (404 for a loop of another project). */
function loopRoute<R extends JSONSchema>(
  deps: Deps,
  spec: LoopRouteSpec<R>,
  handle: (loop: LoopProps, ctx: ApiContext) => ReturnType<TypedRouteSpec<R, never>['handler']>,
): RouteSpec {
  return route<R>({
    ...spec,
    tag: 'Loops',
    params: idParams,
    handler: async (ctx) => handle((await loopRecord(deps, ctx)).loop, ctx),
  });
}

const UNREACHABLE = 'Loop execution (Temporal) is temporarily unreachable.';

/** Runs a read against Temporal, failing fast with 503 while it is known down (and noting when it goes down). */
async function withTemporal<T>(deps: Deps, read: (client: Client) => Promise<T>): Promise<T> {
  const gateway = deps.temporal;
  if (!gateway.health.isUp()) throw gateway.unavailable(UNREACHABLE);
  try {
    return await withTimeout(gateway.getClient().then(read), 5_000);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (isTemporalUnavailable(error) || !(await gateway.ping())) {
      gateway.reportFailure(error);
      throw gateway.unavailable(UNREACHABLE);
    }
    throw error;
  }
}

/**
 * While Temporal is unreachable, a loop's status comes from its graph record (iteration and quality as last recorded).
 */
function statusFromGraph(loop: LoopProps) {
  return {
    headers: { 'X-Loop-Status-Source': 'graph' },
    body: {
      loop_id: loop.id,
      kind: loop.kind,
      status: loop.status ?? 'queued',
      goal: loop.goal,
      subject: loop.subject ?? null,
      effort: loop.effort,
      max_iterations: loop.max_iterations,
      quality_threshold: loop.quality_threshold,
      extractor: loop.extractor,
      iteration: loop.iterations ?? 0,
      quality: loop.quality ?? null,
      delta_id: loop.delta_id,
      workflow_id: loop.workflow_id,
      credits: { reserved: loop.credits_reserved, spent: loop.finished_at ? loop.credits_spent : null },
      stop_reason: loop.finished_at ? (loop.stop_reason ?? null) : null,
      created_at: loop.created_at,
      started_at: loop.started_at ?? null,
      finished_at: loop.finished_at ?? null,
      error: loop.error ?? null,
      links: loopLinks(loop.id, loop.delta_id),
    },
  };
}

/** A loop in the list: the status body without request_id. */
const loopListItem = {
  ...loopStatusSchema,
  required: loopStatusSchema.required.filter((f: string) => f !== 'request_id'),
} as const;

const STATUS_OF: Record<string, NonNullable<LoopProps['status']>> = {
  RUNNING: 'running',
  COMPLETED: 'completed',
  FAILED: 'failed',
  TERMINATED: 'failed',
  TIMED_OUT: 'failed',
  CANCELLED: 'cancelled',
  CONTINUED_AS_NEW: 'running',
};

export function loopRoutes(deps: Deps) {
  const listLoopsAnswer = cursorPage('loops', loopListItem);
  const cancelLoopAnswer = {
    type: 'object',
    properties: { loop_id: { type: 'string' }, status: { const: 'cancelling' }, links: { type: 'object' } },
  } as const;
  return defineRoutes([
    route<typeof loopStartSchema, typeof dryRunSchema>({
      method: 'post',
      path: '/v1/loops',
      operationId: 'startLoop',
      tag: 'Loops',
      scope: 'loops:run',
      idempotent: true,
      summary: 'Start a loop (or compile it with dry_run)',
      description:
        'Stages its output into a new delta (never applies it). Reserves the credit estimate; the real cost ' +
        'is settled when the loop ends. dry_run returns the plan (200) and starts and spends nothing.',
      body: loopRequestBody(deps.config.llm.baseUrl !== undefined),
      status: 202,
      response: loopStartSchema,
      alsoResponds: [
        { status: 200, description: 'dry_run: the compiled plan; nothing started or spent', schema: dryRunSchema },
      ],
      errors: [
        'unsupported_loop_kind',
        'unsupported_loop_effort',
        'apply_not_supported_for_loops',
        'credits_exhausted',
        'loop_dispatch_unavailable',
        'not_found',
        'conflict',
      ],
      handler: async (ctx) => {
        const body = bodyOf<ReturnType<typeof loopRequestBody>>(ctx);
        const actor = await actorFor(deps, ctx, body.project_id, 'body');
        return startOrPlan(deps, actor, body);
      },
    }),
    listRoute<typeof listLoopsAnswer, typeof listQuery, 'loops', 'newest'>(
      deps,
      {
        path: '/v1/loops',
        operationId: 'listLoops',
        tag: 'Loops',
        scope: 'loops:read',
        summary: "The project's loops, newest first, as last recorded in the graph",
        description:
          'Each loop as GET /v1/loops/{loop_id} answers it while Temporal is unreachable: status, iteration and ' +
          'quality as the loop last recorded them (GET /v1/loops/{loop_id} reads the live workflow). status filters ' +
          'on that recorded status.',
        key: 'loops',
        query: listQuery,
        response: listLoopsAnswer,
        order: 'newest',
      },
      async (actor, q, after) => {
        const records = await listLoopRecords(deps.graph, actor.projectId, {
          status: q.status ?? null,
          limit: q.limit + 1,
          afterCreatedAt: after?.c ?? null,
          afterId: after?.i ?? null,
        });
        // A loop removed (its start failed) while the page was read: null for keysetPage.
        return records.map((loop) => (isPresent(loop) ? statusFromGraph(loop).body : null));
      },
      (l) => ({ c: String(l.created_at), i: String(l.loop_id) }),
    ),
    loopRoute<typeof loopStatusSchema>(
      deps,
      {
        method: 'get',
        path: '/v1/loops/:loop_id',
        operationId: 'getLoop',
        scope: 'loops:read',
        summary: 'Loop status',
        description:
          'While Temporal is unreachable the status comes from the loop record in the graph (header ' +
          'X-Loop-Status-Source: graph; iteration and quality as last recorded).',
        query: projectQuery,
        status: 200,
        response: loopStatusSchema,
        errors: ['not_found', 'loop_dispatch_unavailable'],
      },
      async (loop) => {
        const workflowId = loop.workflow_id;
        let read;
        try {
          read = await withTemporal(deps, (client) =>
            Promise.all([
              client.workflow.getHandle(workflowId).describe(),
              readHistory(client, deps.config.temporal.namespace, workflowId),
            ]),
          );
        } catch (error) {
          if (error instanceof ApiError && error.code === 'loop_dispatch_unavailable') return statusFromGraph(loop);
          throw error;
        }
        const [description, events] = read;
        const checkpoints = toCheckpoints(events);
        const last = checkpoints[checkpoints.length - 1];
        const started = events.some((e) => e.activityTaskStartedEventAttributes);
        const temporalStatus = description.status.name;
        const status = temporalStatus === 'RUNNING' && !started ? 'queued' : (STATUS_OF[temporalStatus] ?? 'running');
        // The graph record's fields, with what the workflow history knows better (same keys, same order).
        return {
          body: {
            ...statusFromGraph(loop).body,
            status,
            iteration: last?.iteration ?? 0,
            quality: last?.quality ?? null,
            error:
              loop.error ??
              (temporalStatus === 'FAILED' || temporalStatus === 'TERMINATED' || temporalStatus === 'TIMED_OUT'
                ? `workflow ${temporalStatus.toLowerCase()}`
                : null),
          },
        };
      },
    ),
    loopRoute<typeof eventsSchema>(
      deps,
      {
        method: 'get',
        path: '/v1/loops/:loop_id/events',
        operationId: 'listLoopEvents',
        scope: 'loops:read',
        summary: 'Events of a loop, from its workflow history',
        query: afterSequenceQuery,
        status: 200,
        response: eventsSchema,
        errors: ['not_found', 'loop_dispatch_unavailable'],
      },
      async (loop, ctx) => {
        const q = queryOf<typeof afterSequenceQuery>(ctx);
        const all = toLoopEvents(
          await withTemporal(deps, (client) =>
            readHistory(client, deps.config.temporal.namespace, loop.workflow_id, q.after_sequence + q.limit + 1),
          ),
        );
        return { body: { loop_id: loop.id, ...sequencePage(all, q.after_sequence, q.limit) } };
      },
    ),
    loopRoute<typeof checkpointsSchema>(
      deps,
      {
        method: 'get',
        path: '/v1/loops/:loop_id/checkpoints',
        operationId: 'listLoopCheckpoints',
        scope: 'loops:read',
        summary: 'Iteration-level state of a loop, from its workflow history',
        query: projectQuery,
        status: 200,
        response: checkpointsSchema,
        errors: ['not_found', 'loop_dispatch_unavailable'],
      },
      async (loop) => {
        const checkpoints = toCheckpoints(
          await withTemporal(deps, (client) => readHistory(client, deps.config.temporal.namespace, loop.workflow_id)),
        );
        return { body: { loop_id: loop.id, checkpoints } };
      },
    ),
    loopRoute<typeof cancelLoopAnswer>(
      deps,
      {
        method: 'post',
        path: '/v1/loops/:loop_id/cancel',
        operationId: 'cancelLoop',
        scope: 'loops:run',
        summary: 'Cancel a running loop; its delta stays staged with what was done',
        body: projectOnlyBody,
        status: 202,
        response: cancelLoopAnswer,
        errors: ['not_found', 'conflict', 'loop_dispatch_unavailable'],
      },
      async (loop) => {
        await withTemporal(deps, async (client) => {
          const handle = client.workflow.getHandle(loop.workflow_id);
          const description = await handle.describe();
          if (description.status.name !== 'RUNNING')
            throw new ApiError(
              'conflict',
              `Loop ${loop.id} is not running ` + `(${STATUS_OF[description.status.name] ?? description.status.name}).`,
            );
          await handle.cancel();
        });
        return {
          body: { loop_id: loop.id, status: 'cancelling', links: loopLinks(loop.id, loop.delta_id) },
        };
      },
    ),
  ]);
}
