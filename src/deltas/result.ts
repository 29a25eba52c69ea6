// The one builder of a governed write's answer (docs/memories.md): the common fields every area returns,
// and 409 with status "failed" and the error when the delta could not be applied.
import type { Actor } from '../auth/actor.js';
import type { WriteOutcome } from './service.js';

export interface GovernedWriteFields {
  id: string | null;
  status: WriteOutcome['status'];
  project_id: string;
  delta_id: string;
  applied: boolean;
  error?: { code: string; message: string; details: Record<string, unknown> };
}

/** The common fields: id is null when the write failed. */
export function governedWriteFields(
  actor: Actor,
  outcome: Pick<WriteOutcome, 'deltaId' | 'status' | 'error'>,
  id: string | null,
): GovernedWriteFields {
  const failed = outcome.status === 'failed';
  return {
    id: failed ? null : id,
    status: outcome.status,
    project_id: actor.projectId,
    delta_id: outcome.deltaId,
    applied: outcome.status === 'applied',
    ...(outcome.error
      ? { error: { code: outcome.error.code, message: outcome.error.message, details: outcome.error.details } }
      : {}),
  };
}

/** 201 for a write that was applied or staged, 409 for one that failed. */
export function governedWriteStatus(outcome: Pick<WriteOutcome, 'status'>, success = 201): number {
  return outcome.status === 'failed' ? 409 : success;
}

/**
 * The answer of a governed write on one existing record (a correction, a delete): 200, or 409 when it failed,
 * with the common fields and the record's id under its own name (memory_id, entity_id ...).
 */
export function recordWriteAnswer<K extends string>(
  actor: Actor,
  outcome: Pick<WriteOutcome, 'deltaId' | 'status' | 'error'>,
  key: K,
  id: string,
): { status: number; body: GovernedWriteFields & Record<K, string> } {
  const body = { ...governedWriteFields(actor, outcome, id), [key]: id } as GovernedWriteFields & Record<K, string>;
  return { status: governedWriteStatus(outcome, 200), body };
}
