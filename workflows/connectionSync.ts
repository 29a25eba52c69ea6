// The connectionSync workflow: thin and deterministic. Opens (or, when a schedule started it,
// creates) the sync run, then fetches and stages page after page until the upstream has no more,
// and always settles the run (completed, failed or cancelled). Inputs carry only ids.
import {
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type { ConnectionActivities, SyncSummary } from '../src/connections/activities.js';

const retry = {
  initialInterval: '500 milliseconds',
  backoffCoefficient: 2,
  maximumInterval: '10 seconds',
  maximumAttempts: 3,
  nonRetryableErrorTypes: ['ConnectionAuthFailed', 'ConnectionUnavailable', 'ConnectionRefused'],
};
/** Graph work (open, stage, settle): one transaction each, no heartbeat. */
const activities = proxyActivities<ConnectionActivities>({ startToCloseTimeout: '5 minutes', retry });
/** The upstream call heartbeats, so a worker that dies mid-fetch is noticed within seconds. */
const upstream = proxyActivities<ConnectionActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '10 seconds',
  retry,
});

/** Most pages one run stages (100 records a page on most platforms: a million records). */
const MAX_PAGES = 10_000;

export interface ConnectionSyncInput {
  connection_id: string;
  /** Set when the API opened the run; absent for a scheduled run, which opens its own. */
  sync_id?: string;
}

export async function connectionSync(input: ConnectionSyncInput): Promise<SyncSummary> {
  const info = workflowInfo();
  const begun = await activities.beginSync({
    connection_id: input.connection_id,
    sync_id: input.sync_id ?? null,
    workflow_id: info.workflowId,
    run_id: info.runId,
  });
  if (begun.sync_id === null) {
    return {
      sync_id: null,
      status: 'skipped',
      delta_id: null,
      pages: 0,
      created: 0,
      updated: 0,
      unchanged: 0,
      apply_outcome: null,
      skipped: begun.skipped,
    };
  }
  const ref = { connection_id: input.connection_id, sync_id: begun.sync_id };
  try {
    for (let i = 0; i < MAX_PAGES; i += 1) {
      const page = await upstream.fetchPage(ref);
      if (page.fetched) await activities.stagePage({ ...ref, page_no: page.page_no });
      if (!page.has_more) break;
    }
    return await activities.finishSync({ ...ref, status: 'completed', error: null });
  } catch (error) {
    const cancelled = isCancellation(error);
    const message =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    await CancellationScope.nonCancellable(() =>
      activities.finishSync({ ...ref, status: cancelled ? 'cancelled' : 'failed', error: cancelled ? null : message }),
    );
    if (cancelled) throw error;
    throw ApplicationFailure.nonRetryable(`sync ${begun.sync_id} failed: ${message}`, 'SyncFailed');
  }
}
