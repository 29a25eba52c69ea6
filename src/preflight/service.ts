// Preflight: audits a staged delta as if it were merged, read-only, and holds explicit applies to
// the verdict. The audit opens only READ transactions; the apply guard runs the same checks inside
// the apply's own transaction and never writes.
import type { Graph, Tx } from '../db/graph.js';
import { ApiError, conflict, notFound } from '../errors/catalogue.js';
import type { Actor, ApplyGuard } from '../deltas/service.js';
import type { EmbedderDeps } from '../embeddings/model.js';
import type { Degraded } from '../search/meaning.js';
import { runChecks, sortFindings } from './checks.js';
import { nearDuplicateFindings, withoutExactPairs } from './meaning.js';
import { counts, packetId, verdictOf, type Verdict } from './verdict.js';
import { deltaStatus } from '../deltas/store.js';

/** Most findings a refused apply lists in its error details. */
const GUARD_FINDINGS_SHOWN = 100;

async function auditIn(tx: Tx, deltaId: string, projectId: string, now: string): Promise<Verdict> {
  const status = await deltaStatus(tx, projectId, deltaId);
  if (status === null) throw notFound('delta', deltaId);
  if (status !== 'staged') {
    throw conflict(
      `Delta ${deltaId} is ${status}. The audit answers whether applying a delta would degrade the graph, ` +
        'which only means something for a staged delta.',
      { delta_id: deltaId, status },
    );
  }
  return verdictOf(deltaId, await runChecks(tx, deltaId, projectId, now));
}

export async function auditDelta(
  graph: Graph,
  actor: Actor,
  deltaId: string,
  now: string = new Date().toISOString(),
): Promise<Verdict> {
  return graph.read((tx) => auditIn(tx, deltaId, actor.projectId, now), {
    request_id: actor.requestId,
    key_id: actor.keyId,
    purpose: 'preflight:audit',
  });
}

/**
 * The audit a client asks for (POST /v1/preflight/audit): the checks of cypher/preflight/ and, beside them, the
 * duplicates check by meaning (src/preflight/meaning.ts: its embedding runs in the engine while Neo4j runs the
 * checks), whose findings join the others in their one order; `degraded` says when meaning could not take part.
 */
export async function auditDeltaWithMeaning(
  deps: { graph: Graph } & EmbedderDeps,
  actor: Actor,
  deltaId: string,
): Promise<Verdict & { degraded: Degraded[] }> {
  const [verdict, meaning] = await Promise.all([
    auditDelta(deps.graph, actor, deltaId),
    nearDuplicateFindings(deps.graph, deps, actor, deltaId),
  ]);
  const near = withoutExactPairs(meaning.findings, verdict.findings);
  return {
    ...verdictOf(deltaId, sortFindings([...verdict.findings, ...near])),
    degraded: meaning.degraded,
  };
}

/**
 * Refuses an explicit apply whose verdict has errors, unless the caller gave an override reason;
 * then it returns the error findings overridden, which the apply records on the delta.
 */
export const preflightApplyGuard: ApplyGuard = async (tx, deltaId, actor, overrideReason) => {
  // The apply has just locked the delta and checked it is staged: run the checks directly.
  const verdict = verdictOf(deltaId, await runChecks(tx, deltaId, actor.projectId, new Date().toISOString()));
  const errors = verdict.findings.filter((f) => counts(f) && f.severity === 'error');
  if (overrideReason) return errors.map((f) => ({ ...f }));
  if (verdict.disposition !== 'Blocked') return [];
  const checks = [...new Set(errors.map((f) => f.check))].join(', ');
  throw new ApiError(
    'conflict',
    `Delta ${deltaId} is blocked by preflight packet ${packetId(deltaId)}: ${errors.length} error finding(s) ` +
      `(${checks}). Fix the delta, or apply with override_reason to proceed anyway.`,
    {
      delta_id: deltaId,
      packet_id: packetId(deltaId),
      disposition: verdict.disposition,
      error_count: errors.length,
      findings: errors.slice(0, GUARD_FINDINGS_SHOWN),
      findings_truncated: errors.length > GUARD_FINDINGS_SHOWN,
    },
  );
};
