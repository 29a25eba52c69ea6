// The reembed workflow (`gks reembed`): brings every memory, chunk and entity to the vectors of the
// configured model after a model change. Thin and deterministic: each activity embeds one window of
// nodes in id order (its result, in the history, is the progress event: scanned, embedded, cursor);
// the `progress` query answers the totals so far. It continues as new every windows_per_run windows
// with its cursor, and a restarted re-embedding skips what already has the model's vectors, so it
// resumes where it stopped. At the end it records the model on the vector indexes.
import { continueAsNew, defineQuery, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { EmbeddingActivities } from '../src/embeddings/activities.js';

const { reembedBatch, reembedFinish } = proxyActivities<EmbeddingActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    nonRetryableErrorTypes: ['EmbeddingsOff', 'EmbeddingModelChanged'],
  },
});

export interface ReembedInput {
  model: string;
  dimensions: number;
  /** Nodes read per window, and texts per engine request. */
  window?: number;
  batch_size?: number;
  windows_per_run?: number;
  /** Carried over continue-as-new. */
  cursor?: string;
  totals?: ReembedProgress;
}

export interface ReembedProgress {
  scanned: number;
  embedded: number;
  skipped: number;
  cursor: string;
  done: boolean;
}

export const reembedProgress = defineQuery<ReembedProgress>('progress');

export async function reembed(input: ReembedInput): Promise<ReembedProgress> {
  const progress: ReembedProgress = input.totals ?? {
    scanned: 0,
    embedded: 0,
    skipped: 0,
    cursor: input.cursor ?? '',
    done: false,
  };
  setHandler(reembedProgress, () => progress);
  const window = input.window ?? 256;
  const perRun = input.windows_per_run ?? 200;
  for (let i = 0; i < perRun; i += 1) {
    const r = await reembedBatch({
      model: input.model,
      after: progress.cursor,
      window,
      batchSize: input.batch_size ?? 16,
    });
    progress.scanned += r.scanned;
    progress.embedded += r.embedded;
    progress.skipped += r.skipped;
    progress.cursor = r.cursor;
    if (r.done) {
      await reembedFinish({ model: input.model, dimensions: input.dimensions });
      progress.done = true;
      return progress;
    }
    if (workflowInfo().continueAsNewSuggested) break;
  }
  return continueAsNew<typeof reembed>({ ...input, cursor: progress.cursor, totals: progress });
}
