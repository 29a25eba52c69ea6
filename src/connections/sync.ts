// Sync runs. Opening one decides where it starts: a failed run whose delta is still staged is
// resumed (same delta, same cursor, from its next unstaged page); a completed run whose delta awaits
// review blocks new runs; otherwise a fresh delta starts from the connection's cursor (that of the
// newest applied sync delta, so a rejected delta means its records are fetched again).
import crypto from 'node:crypto';
import { keyMayAct } from '../auth/keys.js';
import type { Graph } from '../db/graph.js';
import type { Plain } from '../db/values.js';
import { ApiError, conflict } from '../errors/catalogue.js';
import { DeltaDraft } from '../deltas/draft.js';
import { applyStaged, noApplyGuard, stageDelta, type Actor } from '../deltas/service.js';
import { auditDelta, preflightApplyGuard } from '../preflight/service.js';
import { lockConnection, type ConnectionRecord } from './store.js';
import { deltaRecord, deltaStatus } from '../deltas/store.js';

export interface OpenSyncOptions {
  trigger: 'manual' | 'schedule';
  fullRefresh: boolean;
  keyId: string;
  requestId: string;
  workflowId: string | null;
  runId: string | null;
}

export interface OpenedSync {
  syncId: string;
  deltaId: string;
  resumedFrom: string | null;
  connection: ConnectionRecord;
}

type Props = Record<string, Plain>;

export function syncActor(connection: ConnectionRecord, keyId: string, requestId: string): Actor {
  return { projectId: connection.projectId, organizationId: connection.organizationId, keyId, requestId };
}

export async function openSync(
  graph: Graph,
  projectId: string,
  connectionId: string,
  options: OpenSyncOptions,
): Promise<OpenedSync> {
  return graph.write(
    async (tx) => {
      const connection = await lockConnection(tx, projectId, connectionId);
      if (connection.pending)
        throw conflict(`Connection ${connectionId} is staged; apply the delta that creates it before syncing.`, {
          connection_id: connectionId,
        });
      if (connection.status === 'paused' || connection.status === 'revoked') {
        throw conflict(
          `Connection ${connectionId} is ${connection.status}; ` +
            `${connection.status === 'paused' ? 'resume it' : 'create a new connection'} to sync.`,
          { connection_id: connectionId, status: connection.status },
        );
      }
      const latest = await tx.one('connections/sync_latest', { connection_id: connectionId });
      const active = latest?.active as Props | null;
      if (active)
        throw new ApiError(
          'sync_in_progress',
          `Sync ${String(active.id)} of connection ${connectionId} is ${String(active.status)}.`,
          { sync_id: active.id, status: active.status },
        );
      const last = latest?.last as Props | null;
      const now = new Date().toISOString();
      const syncId = crypto.randomUUID();
      const base = {
        id: syncId,
        connection_id: connectionId,
        project_id: projectId,
        trigger: options.trigger,
        full_refresh: options.fullRefresh,
        workflow_id: options.workflowId,
        run_id: options.runId,
        key_id: options.keyId,
        now,
      };
      if (last && last.delta_status === 'staged') {
        if (last.status === 'completed') {
          throw new ApiError(
            'sync_in_progress',
            `The delta ${String(last.delta_id)} of sync ${String(last.id)} awaits review; apply or reject it ` +
              'before the next sync.',
            {
              sync_id: last.id,
              delta_id: last.delta_id,
              reason: 'awaiting_review',
            },
          );
        }
        // Resume the failed (or cancelled) run: same delta, same cursor, next unstaged page.
        await tx.run('connections/sync_create', {
          ...base,
          delta_id: last.delta_id,
          since: last.since ?? null,
          next_page: last.next_page ?? null,
          pages: last.pages ?? 0,
          seen: last.seen ?? 0,
          created: last.created ?? 0,
          updated: last.updated ?? 0,
          unchanged: last.unchanged ?? 0,
          resumed_from: last.id,
        });
        await tx.run('connections/sync_set', {
          sync_id: syncId,
          set: { cursor: last.cursor ?? null, exhausted: last.exhausted === true },
        });
        return { syncId, deltaId: String(last.delta_id), resumedFrom: String(last.id), connection };
      }
      const deltaId = crypto.randomUUID();
      await stageDelta(
        tx,
        new DeltaDraft('connection_sync', `sync: ${connection.kind} ${connection.name}`),
        syncActor(connection, options.keyId, options.requestId),
        now,
        deltaId,
      );
      const since = options.fullRefresh ? null : (latest?.cursor ?? null);
      await tx.run('connections/sync_create', {
        ...base,
        delta_id: deltaId,
        since,
        next_page: null,
        pages: 0,
        seen: 0,
        created: 0,
        updated: 0,
        unchanged: 0,
        resumed_from: null,
      });
      return { syncId, deltaId, resumedFrom: null, connection };
    },
    { request_id: options.requestId, key_id: options.keyId, purpose: 'connection:sync-open' },
  );
}

export interface FinishOutcome {
  applyOutcome: string | null;
  deltaStatus: string;
}

/**
 * After a completed run: an empty delta is applied at once (nothing to review, and its cursor
 * stands); with apply_if_safe a delta whose audit is SafeToAct is applied through the
 * preflight-enforced path; anything else stays staged for review.
 */
export async function settleDelta(
  graph: Graph,
  connection: ConnectionRecord,
  deltaId: string,
  keyId: string,
  syncId: string,
): Promise<FinishOutcome> {
  const actor = syncActor(connection, keyId, syncId);
  const delta = await graph.read((tx) => deltaRecord(tx, connection.projectId, deltaId));
  if (!delta || delta.status !== 'staged')
    return { applyOutcome: null, deltaStatus: String(delta?.status ?? 'missing') };
  const now = new Date().toISOString();
  if (Number(delta.change_count ?? 0) === 0) {
    try {
      await graph.write((tx) => applyStaged(tx, deltaId, actor, now, null, noApplyGuard), {
        key_id: keyId,
        purpose: 'connection:sync-apply-empty',
      });
    } catch (error) {
      // A retried settlement whose first attempt applied it already.
      if (!(error instanceof ApiError && error.status === 409)) throw error;
    }
    return { applyOutcome: 'applied_empty', deltaStatus: 'applied' };
  }
  if (connection.applyPolicy !== 'apply_if_safe') return { applyOutcome: 'staged_for_review', deltaStatus: 'staged' };
  // Applying is the acting key's deltas:apply, checked now: a key revoked or narrowed since leaves it staged.
  if ((await keyMayAct(graph, keyId, connection.projectId, connection.organizationId, 'deltas:apply')) !== null)
    return { applyOutcome: 'left_staged:key_cannot_apply', deltaStatus: 'staged' };
  const verdict = await auditDelta(graph, actor, deltaId, now);
  if (verdict.disposition !== 'SafeToAct')
    return { applyOutcome: `left_staged:${verdict.disposition}`, deltaStatus: 'staged' };
  try {
    await graph.write((tx) => applyStaged(tx, deltaId, actor, now, null, preflightApplyGuard), {
      key_id: keyId,
      purpose: 'connection:sync-apply-if-safe',
    });
    return { applyOutcome: 'applied_safe', deltaStatus: 'applied' };
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409)) throw error;
    const status = (await graph.read((tx) => deltaStatus(tx, connection.projectId, deltaId))) ?? 'missing';
    // Applied meanwhile by a retried settlement, or refused by the preflight guard: left staged.
    return status === 'applied'
      ? { applyOutcome: 'applied_safe', deltaStatus: 'applied' }
      : { applyOutcome: 'left_staged:Blocked', deltaStatus: status };
  }
}
