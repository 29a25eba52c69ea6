// Starting a loop as the three routes that start one answer it (POST /v1/loops, POST
// /v1/extractions/shape, a submission routed to extraction): the plan for a dry run (200), else the
// started loop with its links (202).
import type { Deps } from '../http/deps.js';
import type { Actor } from '../deltas/service.js';
import { planLoop, startLoop, type LoopRequest } from './service.js';

export function loopLinks(loopId: string, deltaId: string): Record<string, string> {
  return {
    self: `/v1/loops/${loopId}`,
    events: `/v1/loops/${loopId}/events`,
    checkpoints: `/v1/loops/${loopId}/checkpoints`,
    cancel: `/v1/loops/${loopId}/cancel`,
    delta: `/v1/deltas/${deltaId}`,
    audit: '/v1/preflight/audit',
  };
}

export async function startOrPlan(deps: Deps, actor: Actor, body: LoopRequest) {
  const plan = await planLoop(deps, actor, body);
  if (body.dry_run === true) {
    return { status: 200, body: { dry_run: true as const, project_id: actor.projectId, plan } };
  }
  const started = await startLoop(deps, actor, plan);
  return {
    status: 202,
    body: {
      loop_id: started.loopId,
      delta_id: started.deltaId,
      status: 'queued' as const,
      kind: plan.kind,
      project_id: actor.projectId,
      credits_reserved: plan.credits.estimate,
      links: loopLinks(started.loopId, started.deltaId),
    },
  };
}
