// Starting loops: validate (docs/api-conventions.md error codes), compile the plan (dry_run stops there), then in one
// transaction create the staged delta, reserve the credit estimate and record the loop, and only
// then dispatch the Temporal workflow; if dispatch fails, undo all three so nothing is kept.
import crypto from 'node:crypto';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { ApiError, invalid } from '../errors/catalogue.js';
import { DeltaDraft } from '../deltas/draft.js';
import { stageDelta, type Actor } from '../deltas/service.js';
import { emitCreditsLow } from '../webhooks/events.js';
import { TemporalGateway, isTemporalUnavailable } from '../temporal/connection.js';
import { withTimeout } from '../shared/timeout.js';
import { loopStarts } from '../ops/metrics.js';
import { savedSlice } from '../context/service.js';
import type { ConfigDeps, GraphDeps, LoggerDeps, TemporalDeps } from '../shared/deps.js';
import type { LoopEffort, LoopInput, LoopKind } from './types.js';
import { requireVisibleShape } from '../shapes/store.js';
import { cancelLoopReservation, reserveForLoop } from '../credits/service.js';

export const LOOP_KINDS = ['graph_extraction', 'hydrate'] as const;
export const LOOP_EFFORTS = ['agentic', 'agentic_plus'] as const;
export const WORKFLOW_TYPES: Record<LoopKind, string> = {
  graph_extraction: 'graphExtractionLoop',
  hydrate: 'hydrateLoop',
};
const EFFORT_FACTOR: Record<LoopEffort, number> = { agentic: 1, agentic_plus: 2 };
/** Characters of source one credit buys per iteration. */
export const CHARACTERS_PER_CREDIT = 10_000;

export const ProjectIdKey = defineSearchAttributeKey('ProjectId', SearchAttributeType.KEYWORD);
export const OrganizationIdKey = defineSearchAttributeKey('OrganizationId', SearchAttributeType.KEYWORD);
export const LoopKindKey = defineSearchAttributeKey('LoopKind', SearchAttributeType.KEYWORD);
export const LoopStatusKey = defineSearchAttributeKey('LoopStatus', SearchAttributeType.KEYWORD);

export interface LoopRequest {
  kind?: unknown;
  project_id?: string;
  goal?: string;
  context?: { source_ids?: string[]; subject?: string; slice_id?: string };
  schema?: { shape_ids?: string[] };
  loop?: { effort?: unknown; max_iterations?: number; quality_threshold?: number; extractor?: 'builtin' | 'llm' };
  output?: { type?: 'delta'; apply?: boolean };
  dry_run?: boolean;
}

export interface LoopPlan {
  kind: LoopKind;
  workflow_type: string;
  effort: LoopEffort;
  max_iterations: number;
  quality_threshold: number;
  extractor: 'builtin' | 'llm';
  goal: string;
  subject: string | null;
  slice: { id: string; name: string; version: number } | null;
  sources: { id: string; title: string | null; characters: number }[];
  shapes: { id: string; name: string; version: number }[];
  steps_per_iteration: string[];
  credits: { per_iteration: number; estimate: number };
}

/** What loops/find_sources returns for each id asked, in order. */
interface SourceRow {
  index: number;
  id: string;
  found: boolean;
  title: string | null;
  characters: number;
}

/** The checks whose error codes the spec names, in the order a client would fix them. */
export function checkLoopRequest(body: LoopRequest): { kind: LoopKind; effort: LoopEffort } {
  if (typeof body.kind !== 'string' || !(LOOP_KINDS as readonly string[]).includes(body.kind)) {
    throw new ApiError(
      'unsupported_loop_kind',
      `kind must be graph_extraction or hydrate${body.kind === undefined ? '' : `, got ${JSON.stringify(body.kind)}`}.`,
      {
        fields: [{ field: '/body/kind', reason: 'must be graph_extraction or hydrate' }],
      },
    );
  }
  const effort = body.loop?.effort ?? 'agentic';
  if (typeof effort !== 'string' || !(LOOP_EFFORTS as readonly string[]).includes(effort)) {
    throw new ApiError(
      'unsupported_loop_effort',
      `loop.effort must be agentic or agentic_plus, got ${JSON.stringify(effort)}.`,
      {
        fields: [{ field: '/body/loop/effort', reason: 'must be agentic or agentic_plus' }],
      },
    );
  }
  if (body.output?.apply === true) {
    throw new ApiError(
      'apply_not_supported_for_loops',
      'Loops only stage their output into a delta; apply it after review with POST /v1/deltas/{delta_id}/apply.',
      {
        fields: [{ field: '/body/output/apply', reason: 'must be false or omitted' }],
      },
    );
  }
  return { kind: body.kind as LoopKind, effort: effort as LoopEffort };
}

/** Plans read the graph and whether an LLM is configured. */
export type PlanDeps = GraphDeps & ConfigDeps<'llm'>;
/** Starts write the graph and dispatch on Temporal's task queue. */
export type StartDeps = GraphDeps & LoggerDeps & TemporalDeps & ConfigDeps<'temporal'>;

export async function planLoop(deps: PlanDeps, actor: Actor, body: LoopRequest): Promise<LoopPlan> {
  const { kind, effort } = checkLoopRequest(body);
  const goal = (body.goal ?? '').trim();
  if (!goal) throw invalid('/body/goal', 'is required');
  const sourceIds = body.context?.source_ids ?? [];
  const shapeIds = body.schema?.shape_ids ?? [];
  if (kind === 'graph_extraction' && sourceIds.length === 0)
    throw invalid('/body/context/source_ids', 'graph_extraction needs at least one source document');
  if (kind === 'graph_extraction' && shapeIds.length === 0)
    throw invalid('/body/schema/shape_ids', 'graph_extraction needs at least one shape');
  const sliceId = body.context?.slice_id;
  if (sliceId !== undefined && kind !== 'hydrate')
    throw invalid('/body/context/slice_id', 'only hydrate loops gather through a slice');
  const slice = sliceId === undefined ? null : (await savedSlice(deps.graph, actor.projectId, sliceId)).slice;
  const extractor = body.loop?.extractor ?? 'builtin';
  if (extractor === 'llm' && !deps.config.llm.baseUrl)
    throw invalid('/body/loop/extractor', 'llm needs LLM_BASE_URL configured on the service');
  const { sources, shapes } = await deps.graph.read(async (tx) => {
    const found = sourceIds.length
      ? await tx.run<SourceRow>('loops/find_sources', { source_ids: sourceIds, project_id: actor.projectId })
      : [];
    const missing = found.find((r) => r.found !== true);
    if (missing)
      throw invalid(`/body/context/source_ids/${missing.index}`, `no committed document ${missing.id} in this project`);
    const shapeRows = [];
    for (const [i, id] of shapeIds.entries()) {
      const shape = await requireVisibleShape(tx, actor.projectId, id, `/body/schema/shape_ids/${i}`);
      shapeRows.push({ id, name: shape.name, version: shape.version });
    }
    return {
      sources: found.map((r) => ({ id: r.id, title: r.title, characters: r.characters })),
      shapes: shapeRows,
    };
  });
  const characters = sources.reduce((n, s) => n + s.characters, 0);
  const perIteration =
    Math.max(1, Math.ceil(characters / CHARACTERS_PER_CREDIT)) * EFFORT_FACTOR[effort] * Math.max(1, shapes.length);
  const maxIterations = body.loop?.max_iterations ?? 3;
  return {
    kind,
    workflow_type: WORKFLOW_TYPES[kind],
    effort,
    max_iterations: maxIterations,
    quality_threshold: body.loop?.quality_threshold ?? 0.8,
    extractor,
    goal,
    subject: body.context?.subject ?? null,
    slice,
    sources,
    shapes,
    steps_per_iteration:
      kind === 'graph_extraction'
        ? [
            'extract entities and relationships per source and shape',
            'validate against the shapes',
            'resolve against committed entities',
            'stage new entities and relationships into the delta',
            'score quality',
          ]
        : [
            'search memories, documents and entities for the goal',
            'walk the subject neighbourhood',
            'stage RELEVANT_TO links with reasons into the delta',
            'score coverage',
          ],
    credits: { per_iteration: perIteration, estimate: perIteration * maxIterations },
  };
}

export interface StartedLoop {
  loopId: string;
  deltaId: string;
  plan: LoopPlan;
}

/**
 * How long a start waits for Temporal's answer before it refuses (503). A start sent as Temporal dies waits for
 * the client's retries and its reconnection (2.5 s once, at the old 3 s bound); a live server answers in
 * milliseconds. Well under 2 s, so a start answers within 2 s during an outage (issue 27): at 1.5 s, a refused
 * start took 1.7 s here.
 */
const TEMPORAL_ASK_MS = 1_000;

const NOT_STARTED = 'Loop execution is temporarily unavailable; nothing was started or charged. Try again shortly.';

export async function startLoop(deps: StartDeps, actor: Actor, plan: LoopPlan): Promise<StartedLoop> {
  const gateway = deps.temporal;
  // Known down: answer at once, before anything is written or reserved.
  if (!gateway.health.isUp()) {
    loopStarts.inc({ kind: plan.kind, outcome: 'dispatch_unavailable' });
    throw gateway.unavailable(NOT_STARTED);
  }
  try {
    // Ask Temporal first (one cheap call): a server that just died then costs no graph write and no undo.
    await gateway.ask(TEMPORAL_ASK_MS).catch((error: unknown) => {
      gateway.reportFailure(error);
      throw gateway.unavailable(NOT_STARTED);
    });
    const started = await dispatchLoop(deps, gateway, actor, plan);
    loopStarts.inc({ kind: plan.kind, outcome: 'started' });
    return started;
  } catch (error) {
    const outcome =
      error instanceof ApiError && ['loop_dispatch_unavailable', 'credits_exhausted'].includes(error.code)
        ? error.code
        : 'failed';
    loopStarts.inc({
      kind: plan.kind,
      outcome: outcome === 'loop_dispatch_unavailable' ? 'dispatch_unavailable' : outcome,
    });
    throw error;
  }
}

/** What the workflow is started with: the plan, as the loop's own record. Pure. */
function loopInput(actor: Actor, plan: LoopPlan, loopId: string, deltaId: string): LoopInput {
  return {
    loopId,
    kind: plan.kind,
    projectId: actor.projectId,
    organizationId: actor.organizationId,
    deltaId,
    keyId: actor.keyId,
    goal: plan.goal,
    subject: plan.subject,
    sliceId: plan.slice?.id ?? null,
    sourceIds: plan.sources.map((s) => s.id),
    shapeIds: plan.shapes.map((s) => s.id),
    effort: plan.effort,
    maxIterations: plan.max_iterations,
    qualityThreshold: plan.quality_threshold,
    extractor: plan.extractor,
    creditsReserved: plan.credits.estimate,
    creditsPerIteration: plan.credits.per_iteration,
  };
}

/** One transaction: the loop's staged delta, its credit reservation (402 when short), its record and links. */
async function recordLoop(deps: StartDeps, actor: Actor, plan: LoopPlan, input: LoopInput, workflowId: string) {
  const { loopId, deltaId } = input;
  const now = new Date().toISOString();
  await deps.graph.write(
    async (tx) => {
      await stageDelta(tx, new DeltaDraft('loop', `${plan.kind}: ${plan.goal.slice(0, 120)}`), actor, now, deltaId);
      const reserved = await reserveForLoop(tx, actor.organizationId, loopId, plan.credits.estimate);
      if (!reserved) {
        throw new ApiError(
          'credits_exhausted',
          `The organization lacks the ${plan.credits.estimate} credits this loop is estimated to need.`,
          { credits_needed: plan.credits.estimate },
        );
      }
      await emitCreditsLow(tx, actor, reserved.balance, plan.credits.estimate, reserved.lowBalanceThreshold);
      await tx.run('loops/create', {
        id: loopId,
        project_id: actor.projectId,
        organization_id: actor.organizationId,
        kind: plan.kind,
        goal: plan.goal,
        subject: plan.subject,
        effort: plan.effort,
        max_iterations: plan.max_iterations,
        quality_threshold: plan.quality_threshold,
        extractor: plan.extractor,
        workflow_id: workflowId,
        workflow_type: plan.workflow_type,
        delta_id: deltaId,
        credits_reserved: plan.credits.estimate,
        key_id: actor.keyId,
      });
      if (input.sourceIds.length)
        await tx.run('loops/link_sources', {
          delta_id: deltaId,
          source_ids: input.sourceIds,
          project_id: actor.projectId,
        });
      if (input.shapeIds.length)
        await tx.run('loops/link_shapes', {
          delta_id: deltaId,
          shape_ids: input.shapeIds,
          project_id: actor.projectId,
        });
    },
    { request_id: actor.requestId, key_id: actor.keyId, purpose: 'loop:start' },
  );
}

/** Starts the workflow, bounded to 5 s. */
async function startWorkflow(
  deps: StartDeps,
  gateway: TemporalGateway,
  actor: Actor,
  plan: LoopPlan,
  input: LoopInput,
  workflowId: string,
): Promise<void> {
  await withTimeout(
    (async () => {
      const client = await gateway.getClient();
      await client.workflow.start(plan.workflow_type, {
        taskQueue: deps.config.temporal.taskQueue,
        workflowId,
        args: [input],
        typedSearchAttributes: [
          { key: ProjectIdKey, value: actor.projectId },
          { key: OrganizationIdKey, value: actor.organizationId },
          { key: LoopKindKey, value: plan.kind },
          { key: LoopStatusKey, value: 'queued' },
        ],
        memo: { goal: plan.goal, project_id: actor.projectId, delta_id: input.deltaId, effort: plan.effort },
        workflowExecutionTimeout: '24 hours',
      });
    })(),
    5_000,
  );
}

async function dispatchLoop(
  deps: StartDeps,
  gateway: TemporalGateway,
  actor: Actor,
  plan: LoopPlan,
): Promise<StartedLoop> {
  const loopId = crypto.randomUUID();
  const deltaId = crypto.randomUUID();
  const workflowId = `loop-${loopId}`;
  const input = loopInput(actor, plan, loopId, deltaId);
  await recordLoop(deps, actor, plan, input, workflowId);
  try {
    await startWorkflow(deps, gateway, actor, plan, input, workflowId);
  } catch (error) {
    // Not started: the reservation is released; neither the loop record nor its delta stays.
    await deps.graph.write(
      async (tx) => {
        await cancelLoopReservation(tx, actor.organizationId, loopId);
        await tx.run('loops/remove_unstarted', { id: loopId });
      },
      { purpose: 'loop:dispatch-failed' },
    );
    deps.logger.warn({ err: (error as Error).message, loop_id: loopId }, 'loop dispatch failed');
    if (isTemporalUnavailable(error)) gateway.reportFailure(error);
    throw gateway.unavailable(NOT_STARTED);
  }
  return { loopId, deltaId, plan };
}
