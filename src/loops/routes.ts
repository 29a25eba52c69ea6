// The Loops area (docs/loops.md, docs/api-conventions.md): start (or dry-run) a loop, read its status, events and
// checkpoints from its Temporal history, cancel it.
import type { Deps } from '../http/deps.js';
import { defineRoutes, type ApiContext, route } from '../http/route.js';
import { newestFirstPage } from '../http/records.js';
import { bodyOf, queryOf } from '../http/app.js';
import { ApiError } from '../errors/catalogue.js';
import { afterSequenceQuery, cursorPage, cursorQuery, obj, projectOnlyBody, projectQuery } from '../http/schemas.js';
import { keysetPage } from '../http/cursor.js';
import { actorFor } from '../auth/actor.js';
import type { Actor } from '../deltas/service.js';
import { isTemporalUnavailable, type TemporalGateway } from '../temporal/connection.js';
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

function temporalUnavailable(gateway: TemporalGateway): ApiError {
  return new ApiError(
    'loop_dispatch_unavailable',
    'Loop execution (Temporal) is temporarily unreachable.',
    { since: gateway.health.snapshot().since },
    { 'Retry-After': String(gateway.health.retryAfterSeconds) },
  );
}

/** Runs a read against Temporal, failing fast with 503 while it is known down (and noting when it goes down). */
async function withTemporal<T>(deps: Deps, read: (client: Client) => Promise<T>): Promise<T> {
  const gateway = deps.temporal;
  if (!gateway.health.isUp()) throw temporalUnavailable(gateway);
  try {
    return await withTimeout(gateway.getClient().then(read), 5_000);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (isTemporalUnavailable(error) || !(await gateway.ping())) {
      gateway.reportFailure(error);
      throw temporalUnavailable(gateway);
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
    route<typeof listLoopsAnswer>({
      method: 'get',
      path: '/v1/loops',
      operationId: 'listLoops',
      tag: 'Loops',
      scope: 'loops:read',
      summary: "The project's loops, newest first, as last recorded in the graph",
      description:
        'Each loop as GET /v1/loops/{loop_id} answers it while Temporal is unreachable: status, iteration and ' +
        'quality as the loop last recorded them (GET /v1/loops/{loop_id} reads the live workflow). status filters ' +
        'on that recorded status.',
      query: listQuery,
      status: 200,
      errors: [],
      response: listLoopsAnswer,
      handler: async (ctx) => {
        const { query: q, actor, after } = await newestFirstPage<typeof listQuery>(deps, ctx);
        const records = await listLoopRecords(deps.graph, actor.projectId, {
          status: q.status ?? null,
          limit: q.limit + 1,
          afterCreatedAt: after?.c ?? null,
          afterId: after?.i ?? null,
        });
        const loops = records.map((loop) => statusFromGraph(loop).body);
        const { items, ...page } = keysetPage(loops, q.limit, (l) => ({
          c: String(l.created_at),
          i: String(l.loop_id),
        }));
        return { body: { loops: items, ...page } };
      },
    }),
    route<typeof loopStatusSchema>({
      method: 'get',
      path: '/v1/loops/:loop_id',
      operationId: 'getLoop',
      tag: 'Loops',
      scope: 'loops:read',
      summary: 'Loop status',
      description:
        'While Temporal is unreachable the status comes from the loop record in the graph (header ' +
        'X-Loop-Status-Source: graph; iteration and quality as last recorded).',
      params: idParams,
      query: projectQuery,
      status: 200,
      response: loopStatusSchema,
      errors: ['not_found', 'loop_dispatch_unavailable'],
      handler: async (ctx) => {
        const { loop } = await loopRecord(deps, ctx);
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
        return {
          body: {
            loop_id: loop.id,
            kind: loop.kind,
            status,
            goal: loop.goal,
            subject: loop.subject ?? null,
            effort: loop.effort,
            max_iterations: loop.max_iterations,
            quality_threshold: loop.quality_threshold,
            extractor: loop.extractor,
            iteration: last?.iteration ?? 0,
            quality: last?.quality ?? null,
            delta_id: loop.delta_id,
            workflow_id: workflowId,
            credits: { reserved: loop.credits_reserved, spent: loop.finished_at ? loop.credits_spent : null },
            stop_reason: loop.finished_at ? (loop.stop_reason ?? null) : null,
            created_at: loop.created_at,
            started_at: loop.started_at ?? null,
            finished_at: loop.finished_at ?? null,
            error:
              loop.error ??
              (temporalStatus === 'FAILED' || temporalStatus === 'TERMINATED' || temporalStatus === 'TIMED_OUT'
                ? `workflow ${temporalStatus.toLowerCase()}`
                : null),
            links: loopLinks(loop.id, loop.delta_id),
          },
        };
      },
    }),
    route<typeof eventsSchema>({
      method: 'get',
      path: '/v1/loops/:loop_id/events',
      operationId: 'listLoopEvents',
      tag: 'Loops',
      scope: 'loops:read',
      summary: 'Events of a loop, from its workflow history',
      params: idParams,
      query: afterSequenceQuery,
      status: 200,
      response: eventsSchema,
      errors: ['not_found', 'loop_dispatch_unavailable'],
      handler: async (ctx) => {
        const { loop } = await loopRecord(deps, ctx);
        const q = queryOf<typeof afterSequenceQuery>(ctx);
        const all = toLoopEvents(
          await withTemporal(deps, (client) =>
            readHistory(client, deps.config.temporal.namespace, loop.workflow_id, q.after_sequence + q.limit + 1),
          ),
        );
        const after = all.filter((e) => e.sequence > q.after_sequence);
        const events = after.slice(0, q.limit);
        const last = events[events.length - 1];
        return {
          body: {
            loop_id: loop.id,
            events,
            next_after_sequence: last ? last.sequence : q.after_sequence,
            has_more: after.length > q.limit,
          },
        };
      },
    }),
    route<typeof checkpointsSchema>({
      method: 'get',
      path: '/v1/loops/:loop_id/checkpoints',
      operationId: 'listLoopCheckpoints',
      tag: 'Loops',
      scope: 'loops:read',
      summary: 'Iteration-level state of a loop, from its workflow history',
      params: idParams,
      query: projectQuery,
      status: 200,
      response: checkpointsSchema,
      errors: ['not_found', 'loop_dispatch_unavailable'],
      handler: async (ctx) => {
        const { loop } = await loopRecord(deps, ctx);
        const checkpoints = toCheckpoints(
          await withTemporal(deps, (client) => readHistory(client, deps.config.temporal.namespace, loop.workflow_id)),
        );
        return { body: { loop_id: loop.id, checkpoints } };
      },
    }),
    route<typeof cancelLoopAnswer>({
      method: 'post',
      path: '/v1/loops/:loop_id/cancel',
      operationId: 'cancelLoop',
      tag: 'Loops',
      scope: 'loops:run',
      summary: 'Cancel a running loop; its delta stays staged with what was done',
      params: idParams,
      body: projectOnlyBody,
      status: 202,
      response: cancelLoopAnswer,
      errors: ['not_found', 'conflict', 'loop_dispatch_unavailable'],
      handler: async (ctx) => {
        const { loop } = await loopRecord(deps, ctx);
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
    }),
  ]);
}
