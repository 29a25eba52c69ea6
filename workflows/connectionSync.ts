// The connectionSync workflow: thin and deterministic. Opens (or, when a schedule started it,
// creates) the sync run, then fetches and stages page after page until the upstream has no more,
// and always settles the run (completed, failed or cancelled). Inputs carry only ids. A long sync
// continues as new every pages_per_run pages (or when Temporal suggests it), so no history grows
// past its limits; the run's page pointer lives in the graph, so the next run resumes where it was.
import {
  ApplicationFailure,
  CancellationScope,
  continueAsNew,
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

/** Most pages one sync stages over all its workflow runs (100 records a page: ten million records). */
const MAX_PAGES = 100_000;
const DEFAULT_PAGES_PER_RUN = 500;

export interface ConnectionSyncInput {
  connection_id: string;
  /** Set when the API opened the run; absent for a scheduled run, which opens its own. */
  sync_id?: string;
  /** Pages one workflow run stages before it continues as new (GKS_SYNC_PAGES_PER_RUN). */
  pages_per_run?: number;
  /** Set on a run that continues an earlier one of the same sync. */
  continued?: boolean;
}

export async function connectionSync(input: ConnectionSyncInput): Promise<SyncSummary> {
  const info = workflowInfo();
  const begun = await activities.beginSync({
    connection_id: input.connection_id,
    sync_id: input.sync_id ?? null,
    workflow_id: info.workflowId,
    run_id: info.runId,
    continued: input.continued === true,
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
  const perRun = input.pages_per_run ?? DEFAULT_PAGES_PER_RUN;
  let more = true;
  try {
    for (let i = 0; i < perRun && more; i += 1) {
      const page = await upstream.fetchPage(ref);
      if (page.fetched) await activities.stagePage({ ...ref, page_no: page.page_no });
      more = page.has_more;
      if (more && page.page_no >= MAX_PAGES)
        throw ApplicationFailure.nonRetryable(`the upstream has more than ${MAX_PAGES} pages`, 'TooManyPages');
      if (workflowInfo().continueAsNewSuggested) break;
    }
    if (!more) return await activities.finishSync({ ...ref, status: 'completed', error: null });
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
  // Outside the try: continuing as new is how this run ends, not a failure of the sync.
  return continueAsNew<typeof connectionSync>({
    connection_id: input.connection_id,
    sync_id: begun.sync_id,
    pages_per_run: perRun,
    continued: true,
  });
}
