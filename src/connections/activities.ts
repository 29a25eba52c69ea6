// The activities of connectionSync: all I/O of a sync run. Inputs and results carry ids and counts
// only (workflow history is shown as events), never a token or a record. Fetched pages wait in a
// :SyncPage buffer until staged; staging a page and advancing the run's page pointer is one
// transaction, so a retried page stages nothing twice and a failed run resumes at its next page.
import crypto from 'node:crypto';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Graph } from '../db/graph.js';
import { keyMayAct } from '../auth/keys.js';
import { ApiError } from '../errors/catalogue.js';
import { CONNECTORS, callerFor } from './connectors/index.js';
import { UpstreamError } from './http.js';
import { stageRecords } from './records.js';
import { scrub } from './secrets.js';
import {
  changeConnection,
  connectionWithToken,
  toRecord,
  type ConnectionRecord,
  type ConnectionRow,
  type SyncProps,
  type SyncRow,
} from './store.js';
import { openSync, settleDelta } from './sync.js';
import type { PageState, SyncRecord } from './types.js';
import type { Tx } from '../db/graph.js';
import { deltaEventData, emitWebhookEvent } from '../webhooks/events.js';

/**
 * sync.completed or sync.failed, in the transaction that ends the run; a completed run whose delta
 * awaits review is also delta.staged (one applied at once already said delta.applied).
 */
async function emitSyncEvents(
  tx: Tx,
  connection: ConnectionRecord,
  request: FinishRequest,
  deltaId: string,
  applyOutcome: string | null,
): Promise<void> {
  if (request.status === 'cancelled') return;
  await emitWebhookEvent(tx, connection.projectId, `sync.${request.status}`, {
    sync_id: request.sync_id,
    connection_id: connection.id,
    status: request.status,
    delta_id: deltaId,
    apply_outcome: applyOutcome,
    links: {
      sync: `/v1/connections/${connection.id}/syncs/${request.sync_id}`,
      delta: `/v1/deltas/${deltaId}`,
    },
  });
  if (request.status === 'completed' && applyOutcome !== null && !applyOutcome.startsWith('applied'))
    await emitWebhookEvent(tx, connection.projectId, 'delta.staged', deltaEventData(deltaId, 'staged'));
}

export interface SyncRef {
  connection_id: string;
  sync_id: string;
}
export interface BeginRequest {
  connection_id: string;
  sync_id: string | null;
  workflow_id: string;
  run_id: string;
  /** A later run of the same sync (continued as new): the run keeps its start time and first run id. */
  continued?: boolean;
}
export interface FetchedPage {
  page_no: number;
  fetched: boolean;
  count: number;
  has_more: boolean;
}
export interface StagedPage {
  page_no: number;
  created: number;
  updated: number;
  unchanged: number;
  already_staged: boolean;
}
export interface FinishRequest extends SyncRef {
  status: 'completed' | 'failed' | 'cancelled';
  error: string | null;
}
export interface SyncSummary {
  sync_id: string | null;
  status: string;
  delta_id: string | null;
  pages: number;
  created: number;
  updated: number;
  unchanged: number;
  apply_outcome: string | null;
  skipped: string | null;
}

export interface ConnectionActivityDeps {
  graph: Graph;
  config: Config;
  logger?: Logger | undefined;
}

function heartbeat(details?: unknown): void {
  try {
    Context.current().heartbeat(details);
  } catch {
    // Called outside an activity (tests): nothing to report to.
  }
}

export function createConnectionActivities(deps: ConnectionActivityDeps) {
  const { graph } = deps;

  async function load(connectionId: string): Promise<ConnectionRecord> {
    const row = await graph.read((tx) => tx.one<ConnectionRow>('connections/get_by_id', { id: connectionId }));
    if (!row)
      throw ApplicationFailure.nonRetryable(`connection ${connectionId} no longer exists`, 'ConnectionUnavailable');
    return toRecord(row.connection, row.pending === true);
  }

  async function syncOf(ref: SyncRef, connection: ConnectionRecord): Promise<SyncProps> {
    const row = await graph.read((tx) =>
      tx.one<SyncRow>('connections/sync_get', {
        sync_id: ref.sync_id,
        connection_id: ref.connection_id,
        project_id: connection.projectId,
      }),
    );
    if (!row) throw ApplicationFailure.nonRetryable(`sync ${ref.sync_id} has no record`, 'ConnectionUnavailable');
    return row.sync;
  }

  /** Auth and scope failures mark the connection and stop the run; anything else is retried. */
  async function upstreamFailure(connection: ConnectionRecord, error: UpstreamError): Promise<never> {
    deps.logger?.warn(
      { connection_id: connection.id, reason: error.reason, http_status: error.httpStatus, err: error.message },
      'connection sync: upstream failure',
    );
    if (error.reason === 'auth_failed' || error.reason === 'forbidden_scope') {
      // A connection paused or revoked while the run went stays so.
      await changeConnection(graph, connection.projectId, connection.id, (current) =>
        current.status === 'paused' || current.status === 'revoked'
          ? null
          : { status: 'error', status_reason: error.reason },
      );
      throw ApplicationFailure.nonRetryable(error.message, 'ConnectionAuthFailed');
    }
    if (error.reason === 'refused') throw ApplicationFailure.nonRetryable(error.message, 'ConnectionRefused');
    throw ApplicationFailure.retryable(error.message, 'UpstreamUnavailable');
  }

  /**
   * A scheduled run acts as the connection's acting key, which must still be valid and hold
   * connections:sync for the project; if not, the connection is paused with the reason and the run
   * skipped (no later run acts until someone resumes it, becoming the acting key).
   */
  async function actingKeyRefused(connection: ConnectionRecord): Promise<string | null> {
    if (connection.status === 'paused' || connection.status === 'revoked') return null; // openSync says why
    const refused = await keyMayAct(
      graph,
      connection.actingKeyId,
      connection.projectId,
      connection.organizationId,
      'connections:sync',
    );
    if (refused === null) return null;
    const reason = refused === 'revoked' || refused === 'unknown' ? 'key_revoked' : 'key_lacks_scope';
    await changeConnection(graph, connection.projectId, connection.id, (current) =>
      current.status === 'paused' || current.status === 'revoked'
        ? null
        : { status: 'paused', prior_status: current.status, status_reason: reason },
    );
    deps.logger?.warn({ connection_id: connection.id, key_id: connection.actingKeyId, reason }, 'connection paused');
    return (
      `the key ${connection.actingKeyId} that scheduled syncs act as ` +
      (reason === 'key_revoked' ? 'was revoked' : 'no longer holds connections:sync for this project') +
      '; the connection is paused until a key with connections:write resumes it'
    );
  }

  return {
    /** Marks a manual run running, or opens a scheduled run (skipped while another runs or awaits review). */
    async beginSync(request: BeginRequest): Promise<{ sync_id: string | null; skipped: string | null }> {
      const connection = await load(request.connection_id);
      let syncId = request.sync_id;
      if (syncId === null) {
        const refused = await actingKeyRefused(connection);
        if (refused) return { sync_id: null, skipped: refused };
        try {
          const opened = await openSync(graph, connection.projectId, connection.id, {
            trigger: 'schedule',
            fullRefresh: false,
            keyId: connection.actingKeyId,
            requestId: request.run_id,
            workflowId: request.workflow_id,
            runId: request.run_id,
          });
          syncId = opened.syncId;
        } catch (error) {
          if (error instanceof ApiError && error.status === 409) return { sync_id: null, skipped: error.message };
          throw error;
        }
      }
      // run_id stays the first run of the chain (events are read from it onwards); latest_run_id is the live one.
      const set = request.continued
        ? { status: 'running', latest_run_id: request.run_id }
        : {
            status: 'running',
            started_at: new Date().toISOString(),
            workflow_id: request.workflow_id,
            run_id: request.run_id,
            latest_run_id: request.run_id,
          };
      await graph.write((tx) => tx.run('connections/sync_set', { sync_id: syncId, set }));
      return { sync_id: syncId, skipped: null };
    },

    /** Fetches the run's next unstaged page into the buffer; heartbeats while the upstream answers. */
    async fetchPage(ref: SyncRef): Promise<FetchedPage> {
      // The configuration and the token of one moment (connectionWithToken): the token goes only where it was set for.
      const read = await connectionWithToken(graph, deps.config.secrets, null, ref.connection_id);
      if (!read)
        throw ApplicationFailure.nonRetryable(
          `connection ${ref.connection_id} no longer exists`,
          'ConnectionUnavailable',
        );
      const { connection, token } = read;
      if (connection.status === 'paused' || connection.status === 'revoked')
        throw ApplicationFailure.nonRetryable(`connection is ${connection.status}`, 'ConnectionUnavailable');
      const sync = await syncOf(ref, connection);
      const pageNo = (sync.pages ?? 0) + 1;
      if (sync.exhausted === true) return { page_no: pageNo - 1, fetched: false, count: 0, has_more: false };
      if (token === null && connection.kind !== 'feed')
        throw ApplicationFailure.nonRetryable('the connection has no secret (revoked)', 'ConnectionUnavailable');
      const ctx = {
        kind: connection.kind,
        config: connection.config,
        token,
        since: sync.since ?? null,
        heartbeat: () => heartbeat({ page: pageNo }),
      };
      const state = sync.next_page ? (JSON.parse(sync.next_page) as PageState) : null;
      heartbeat({ page: pageNo });
      let page;
      try {
        page = await CONNECTORS[connection.kind].fetchPage(ctx, state, callerFor(ctx, deps.config.fetch));
      } catch (error) {
        if (error instanceof UpstreamError) return upstreamFailure(connection, error);
        throw ApplicationFailure.retryable(
          scrub(error instanceof Error ? error.message : String(error), token),
          'SyncFetchFailed',
        );
      }
      await graph.write(
        (tx) =>
          tx.run('connections/page_put', {
            sync_id: ref.sync_id,
            page_no: pageNo,
            records: JSON.stringify(page.records),
            next_page: page.next ? JSON.stringify(page.next) : null,
            now: new Date().toISOString(),
          }),
        { purpose: 'connection:sync-buffer' },
      );
      return { page_no: pageNo, fetched: true, count: page.records.length, has_more: page.next !== null };
    },

    /** Stages a buffered page and advances the run's page pointer and cursor in one transaction. */
    async stagePage(ref: SyncRef & { page_no: number }): Promise<StagedPage> {
      const connection = await load(ref.connection_id);
      return graph.write(
        async (tx) => {
          const row = await tx.one<{ sync: SyncProps | null; records: string | null; next_page: string | null }>(
            'connections/page_take',
            { sync_id: ref.sync_id, page_no: ref.page_no, token: crypto.randomUUID() },
          );
          const sync = row?.sync;
          if (!sync)
            throw ApplicationFailure.nonRetryable(`sync ${ref.sync_id} has no record`, 'ConnectionUnavailable');
          if ((sync.pages ?? 0) >= ref.page_no)
            return { page_no: ref.page_no, created: 0, updated: 0, unchanged: 0, already_staged: true };
          if (row?.records === null || row?.records === undefined)
            throw ApplicationFailure.retryable(`page ${ref.page_no} is not buffered`, 'SyncPageMissing');
          const records = JSON.parse(row.records) as SyncRecord[];
          const counts = await stageRecords(tx, connection, sync.delta_id, records);
          const high = records.reduce<string | null>(
            (max, r) => (r.updated_at && (!max || r.updated_at > max) ? r.updated_at : max),
            sync.cursor == null ? null : String(sync.cursor),
          );
          await tx.run('connections/sync_set', {
            sync_id: ref.sync_id,
            set: {
              pages: ref.page_no,
              next_page: row.next_page ?? null,
              exhausted: row.next_page === null,
              cursor: high,
              seen: (sync.seen ?? 0) + records.length,
              created: (sync.created ?? 0) + counts.created,
              updated: (sync.updated ?? 0) + counts.updated,
              unchanged: (sync.unchanged ?? 0) + counts.unchanged,
            },
          });
          await tx.run('connections/page_drop', { sync_id: ref.sync_id, page_no: ref.page_no });
          return { page_no: ref.page_no, ...counts, already_staged: false };
        },
        { purpose: 'connection:sync-stage' },
      );
    },

    /** Ends the run: its status, the connection's status, and (completed) the delta's settlement. */
    async finishSync(request: FinishRequest): Promise<SyncSummary> {
      const connection = await load(request.connection_id);
      let sync = await syncOf(request, connection);
      let applyOutcome = sync.apply_outcome ?? null;
      if (sync.status === 'queued' || sync.status === 'running') {
        if (request.status === 'completed')
          applyOutcome = (
            await settleDelta(graph, connection, sync.delta_id, sync.key_id ?? connection.actingKeyId, request.sync_id)
          ).applyOutcome;
        await graph.write(
          async (tx) => {
            await tx.run('connections/sync_set', {
              sync_id: request.sync_id,
              set: {
                status: request.status,
                error: request.error,
                finished_at: new Date().toISOString(),
                apply_outcome: applyOutcome,
              },
            });
            await tx.run('connections/page_drop', { sync_id: request.sync_id, page_no: null });
            await emitSyncEvents(tx, connection, request, sync.delta_id, applyOutcome);
          },
          { purpose: 'connection:sync-finish' },
        );
        if (request.status === 'completed' && (connection.status === 'untested' || connection.status === 'error')) {
          // Judged again under the lock: a connection paused or revoked while the run went stays so.
          await changeConnection(graph, connection.projectId, connection.id, (current) =>
            current.status === 'untested' || current.status === 'error'
              ? { status: 'active', status_reason: null }
              : null,
          );
        }
        sync = await syncOf(request, connection);
      }
      return {
        sync_id: request.sync_id,
        status: sync.status,
        delta_id: sync.delta_id,
        pages: sync.pages ?? 0,
        created: sync.created ?? 0,
        updated: sync.updated ?? 0,
        unchanged: sync.unchanged ?? 0,
        apply_outcome: applyOutcome,
        skipped: null,
      };
    },
  };
}

export type ConnectionActivities = ReturnType<typeof createConnectionActivities>;
