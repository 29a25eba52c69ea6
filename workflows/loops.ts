// The loop workflows, one per kind. Thin and deterministic: every read and write happens in an
// activity; the workflow only sequences iterations, stops at the quality threshold, after an
// iteration that staged nothing new, or at max_iterations, and always settles (completed, failed or
// cancelled, with the stop reason) before it ends. Only iterations that ran are charged.
import {
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  proxyActivities,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { LoopActivities } from '../src/loops/activities.js';
import type { Checkpoint, LoopInput, LoopResult, StopReason } from '../src/loops/types.js';

const activities = proxyActivities<LoopActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '10 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumAttempts: 5,
    nonRetryableErrorTypes: ['LoopInputError'],
  },
});

type IterationStep = (input: LoopInput, iteration: number) => Promise<Checkpoint>;

async function runLoop(input: LoopInput, step: IterationStep): Promise<LoopResult> {
  let iterations = 0;
  let quality: number | null = null;
  upsertSearchAttributes({ LoopStatus: ['running'] });
  try {
    await activities.beginLoop(input);
    await activities.loadSources(input);
    let stopReason: StopReason = 'max_iterations';
    for (let iteration = 1; iteration <= input.maxIterations; iteration += 1) {
      const checkpoint = await step(input, iteration);
      iterations = iteration;
      quality = checkpoint.quality;
      if (quality >= input.qualityThreshold) {
        stopReason = 'quality_reached';
        break;
      }
      // Another pass over the same input would stage nothing either: stop rather than charge for it.
      if (checkpoint.entities_new + checkpoint.relationships_new === 0) {
        stopReason = 'no_progress';
        break;
      }
    }
    upsertSearchAttributes({ LoopStatus: ['completed'] });
    // The loop has stopped: a cancel that comes while it settles does not cut the settling short (it would leave the
    // record saying completed with its stop reason under a workflow cancelled), so the two agree.
    return await CancellationScope.nonCancellable(() =>
      activities.finishLoop({ input, status: 'completed', iterations, quality, error: null, stopReason }),
    );
  } catch (error) {
    const cancelled = isCancellation(error);
    upsertSearchAttributes({ LoopStatus: [cancelled ? 'cancelled' : 'failed'] });
    const message =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    // Settling must run even though the workflow itself is being cancelled.
    await CancellationScope.nonCancellable(() =>
      activities.finishLoop({
        input,
        status: cancelled ? 'cancelled' : 'failed',
        iterations,
        quality,
        error: cancelled ? null : message,
        stopReason: cancelled ? 'cancelled' : 'failed',
      }),
    );
    if (cancelled) throw error;
    throw ApplicationFailure.nonRetryable(`loop ${input.loopId} failed: ${message}`, 'LoopFailed');
  }
}

/** graph_extraction: extract typed entities and relationships from the sources into the shapes. */
export async function graphExtractionLoop(input: LoopInput): Promise<LoopResult> {
  return runLoop(input, (i, iteration) => activities.extractAndStage({ input: i, iteration }));
}

/** hydrate: gather the context around the goal (and subject) and stage RELEVANT_TO links. */
export async function hydrateLoop(input: LoopInput): Promise<LoopResult> {
  return runLoop(input, (i, iteration) => activities.gatherContext({ input: i, iteration }));
}
