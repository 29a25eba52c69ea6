// Starting a sync on Temporal: open the run in the graph (which refuses a second concurrent run),
// then start workflow sync-<connection_id> with the connection's search attributes. A start that
// Temporal refuses (one already runs) is the same 409; one it cannot take leaves nothing behind.
import {
  defineSearchAttributeKey,
  SearchAttributeType,
  WorkflowExecutionAlreadyStartedError,
} from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { ApiError } from '../errors/catalogue.js';
import type { Actor } from '../deltas/service.js';
import { OrganizationIdKey, ProjectIdKey } from '../loops/service.js';
import type { ConfigDeps, GraphDeps, LoggerDeps, TemporalDeps } from '../shared/deps.js';
import { withTimeout } from '../shared/timeout.js';
import { openSync, type OpenedSync } from './sync.js';
import type { ConnectionRecord } from './store.js';

export const ConnectionIdKey = defineSearchAttributeKey('ConnectionId', SearchAttributeType.KEYWORD);
export const ConnectionKindKey = defineSearchAttributeKey('ConnectionKind', SearchAttributeType.KEYWORD);
export const SYNC_WORKFLOW = 'connectionSync';

export function syncWorkflowId(connectionId: string): string {
  return `sync-${connectionId}`;
}

export function searchAttributes(connection: ConnectionRecord) {
  return [
    { key: ConnectionIdKey, value: connection.id },
    { key: ConnectionKindKey, value: connection.kind },
    { key: ProjectIdKey, value: connection.projectId },
    { key: OrganizationIdKey, value: connection.organizationId },
  ];
}

/** The Temporal client, or the 503 (with Retry-After) that says no sync was started. */
export function temporalClient(deps: TemporalDeps): Promise<Client> {
  return deps.temporal.clientOrUnavailable(
    'Sync execution (Temporal) is temporarily unreachable; nothing was started.',
  );
}

/** A run the graph still calls active whose workflow has ended without settling it is marked failed. */
async function clearStaleRun(deps: GraphDeps, client: Client, error: ApiError): Promise<boolean> {
  const syncId = error.details.sync_id;
  if (error.details.reason === 'awaiting_review' || typeof syncId !== 'string') return false;
  const row = await deps.graph.read((tx) => tx.one('connections/sync_workflow', { id: syncId }));
  const workflowId = row?.workflow_id;
  if (typeof workflowId !== 'string') return false;
  try {
    const runId = typeof row?.run_id === 'string' ? row.run_id : undefined;
    let description = await client.workflow.getHandle(workflowId, runId).describe();
    // The stored run is the first of the chain; a run that continued as new lives on in the latest one.
    if (description.status.name === 'CONTINUED_AS_NEW')
      description = await client.workflow.getHandle(workflowId).describe();
    if (description.status.name === 'RUNNING') return false;
  } catch {
    // No such workflow: the run never started.
  }
  await deps.graph.write((tx) =>
    tx.run('connections/sync_set', {
      sync_id: syncId,
      set: {
        status: 'failed',
        error: 'the sync workflow ended without settling the run',
        finished_at: new Date().toISOString(),
      },
    }),
  );
  return true;
}

export async function startSync(
  deps: GraphDeps & LoggerDeps & TemporalDeps & ConfigDeps<'temporal' | 'syncPagesPerRun'>,
  actor: Actor,
  connectionId: string,
  fullRefresh: boolean,
): Promise<OpenedSync> {
  const client = await temporalClient(deps);
  const workflowId = syncWorkflowId(connectionId);
  const options = {
    trigger: 'manual' as const,
    fullRefresh,
    keyId: actor.keyId,
    requestId: actor.requestId,
    workflowId,
    runId: null,
  };
  let opened: OpenedSync;
  try {
    opened = await openSync(deps.graph, actor.projectId, connectionId, options);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'sync_in_progress' && (await clearStaleRun(deps, client, error))))
      throw error;
    opened = await openSync(deps.graph, actor.projectId, connectionId, options);
  }
  const start = () =>
    withTimeout(
      client.workflow.start(SYNC_WORKFLOW, {
        taskQueue: deps.config.temporal.taskQueue,
        workflowId,
        args: [{ connection_id: connectionId, sync_id: opened.syncId, pages_per_run: deps.config.syncPagesPerRun }],
        typedSearchAttributes: searchAttributes(opened.connection),
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        memo: { project_id: actor.projectId, delta_id: opened.deltaId, sync_id: opened.syncId },
        workflowExecutionTimeout: '24 hours',
      }),
      5_000,
    );
  try {
    let handle;
    for (let attempt = 0; ; attempt += 1) {
      try {
        handle = await start();
        break;
      } catch (error) {
        // openSync holds that no other run is active, so a workflow still running under this id has
        // settled its run and is ending: give it a moment rather than refuse.
        if (!(error instanceof WorkflowExecutionAlreadyStartedError) || attempt >= 20) throw error;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    await deps.graph.write((tx) =>
      tx.run('connections/sync_set', { sync_id: opened.syncId, set: { run_id: handle.firstExecutionRunId } }),
    );
  } catch (error) {
    await deps.graph.write((tx) =>
      tx.run('connections/sync_remove', { sync_id: opened.syncId, remove_delta: opened.resumedFrom === null }),
    );
    if (error instanceof WorkflowExecutionAlreadyStartedError) {
      throw new ApiError(
        'sync_in_progress',
        `A sync of connection ${connectionId} is already running (workflow ${workflowId}).`,
        { workflow_id: workflowId },
      );
    }
    deps.logger.warn({ err: (error as Error).message, connection_id: connectionId }, 'sync dispatch failed');
    throw deps.temporal.unavailable(
      'Sync execution is temporarily unavailable; nothing was started. Try again shortly.',
    );
  }
  return opened;
}
