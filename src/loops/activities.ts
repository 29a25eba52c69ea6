// The loop activities: all I/O of a loop (Neo4j reads and staged writes, extraction, credits).
// Built from their dependencies so the worker and tests hand in real ones. Each is idempotent: a
// retried attempt stages nothing twice and settles credits once.
import type { Embedder } from '../embeddings/model.js';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Config } from '../config/config.js';
import type { Graph } from '../db/graph.js';
import { ApiError } from '../errors/catalogue.js';
import { loadDocumentChunks, markExtractionFinished, markExtractionStarted } from '../documents/lifecycle.js';
import { createExtractor } from '../extractor/index.js';
import type { ShapeDef } from '../shapes/types.js';
import {
  extractIteration,
  iterationQuality,
  stageIteration,
  type EntityValidator,
  type SourceText,
} from './stageExtraction.js';
import { gatherContext } from './hydrate.js';
import { joinChunks } from './text.js';
import type { Checkpoint, FinishRequest, IterationRequest, LoopInput, LoopResult, SourceSummary } from './types.js';
import { creditsSpent, loopOutcomes } from '../ops/metrics.js';
import type { Tx } from '../db/graph.js';
import { deltaEventData, emitWebhookEvent } from '../webhooks/events.js';

/** loop.completed (and delta.staged: the loop's delta is now ready for review) or loop.failed. */
async function emitLoopEvents(
  tx: Tx,
  input: LoopInput,
  status: FinishRequest['status'],
  stopReason: FinishRequest['stopReason'],
): Promise<void> {
  if (status !== 'completed' && status !== 'failed') return;
  const data = {
    loop_id: input.loopId,
    kind: input.kind,
    status,
    stop_reason: stopReason,
    delta_id: input.deltaId,
    links: { loop: `/v1/loops/${input.loopId}`, delta: `/v1/deltas/${input.deltaId}` },
  };
  await emitWebhookEvent(tx, input.projectId, `loop.${status}`, data);
  if (status === 'completed')
    await emitWebhookEvent(tx, input.projectId, 'delta.staged', deltaEventData(input.deltaId, 'staged'));
}
import { visibleShape } from '../shapes/store.js';
import { settleLoop } from '../credits/service.js';

export interface LoopActivityDeps {
  graph: Graph;
  config: Config;
  /** Recall by meaning for hydrate's gather; null when EMBEDDINGS=off or no engine is known. */
  embedder: Embedder | null;
  loadShape(projectId: string, shapeId: string): Promise<ShapeDef | null>;
  validateEntity: EntityValidator;
}

function heartbeat(details?: unknown): void {
  try {
    Context.current().heartbeat(details);
  } catch {
    // Outside an activity context (called directly): nothing to report to.
  }
}

/**
 * An error that fails the same way on every retry (a relationship to a node that is not there or
 * pending in another delta, a 404, a 400) is a non-retryable failure. Collisions with a concurrent
 * write (a uniqueness rule, a deadlock; typically a timed-out attempt of this same activity that
 * still committed) and engine hiccups keep Temporal's retries: the next attempt sees what won.
 */
export async function withoutRetryOnRequestErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const permanent =
      error instanceof ApiError &&
      error.status < 500 &&
      (error.status !== 409 || error.details.check === 'dangling_relationship');
    if (permanent) {
      throw ApplicationFailure.create({
        message: error.message,
        type: error.status === 409 ? 'LoopConflict' : 'LoopInputError',
        nonRetryable: true,
        cause: error,
      });
    }
    throw error;
  }
}

export function createLoopActivities(deps: LoopActivityDeps) {
  const { graph } = deps;

  async function shapesOf(input: LoopInput): Promise<ShapeDef[]> {
    const shapes: ShapeDef[] = [];
    for (const id of input.shapeIds) {
      const shape = await deps.loadShape(input.projectId, id);
      if (!shape) throw ApplicationFailure.nonRetryable(`shape ${id} is no longer available`, 'LoopInputError');
      shapes.push(shape);
    }
    return shapes;
  }

  async function sourceTexts(input: LoopInput): Promise<SourceText[]> {
    const out: SourceText[] = [];
    for (const id of input.sourceIds) {
      try {
        const { chunks } = await loadDocumentChunks(graph, input.projectId, id);
        out.push({ id, text: joinChunks(chunks) });
      } catch (error) {
        if (error instanceof ApiError && error.code === 'not_found')
          throw ApplicationFailure.nonRetryable(`source ${id} is no longer available`, 'LoopInputError');
        throw error;
      }
      heartbeat({ loaded: out.length });
    }
    return out;
  }

  return {
    /** Marks the loop running and its source documents as being extracted. */
    async beginLoop(input: LoopInput): Promise<{ started: true }> {
      const row = await graph.write((tx) => tx.one('loops/set_running', { id: input.loopId }));
      // A dispatch that timed out was undone; a start that still arrived later must not run.
      if (!row)
        throw ApplicationFailure.nonRetryable(
          `loop ${input.loopId} has no record (its dispatch was abandoned)`,
          'LoopInputError',
        );
      if (input.kind === 'graph_extraction') {
        for (const id of input.sourceIds) await markExtractionStarted(graph, input.projectId, id);
      }
      return { started: true };
    },

    /** Reports the size of each source; fails the loop when one has gone. */
    async loadSources(input: LoopInput): Promise<SourceSummary[]> {
      const rows = await graph.read((tx) =>
        tx.run<{ id: string; title: string | null; chunks: number; characters: number }>('loops/source_stats', {
          source_ids: input.sourceIds,
          project_id: input.projectId,
        }),
      );
      if (rows.length !== input.sourceIds.length) {
        throw ApplicationFailure.nonRetryable(
          'a source document of this loop is no longer available',
          'LoopInputError',
        );
      }
      return rows.map((r) => ({ id: r.id, title: r.title, chunks: r.chunks, characters: r.characters }));
    },

    /** One graph_extraction iteration: extract, validate, resolve and stage; returns the checkpoint. */
    async extractAndStage({ input, iteration }: IterationRequest): Promise<Checkpoint> {
      const shapes = await shapesOf(input);
      const sources = await sourceTexts(input);
      const extractor = createExtractor(deps.config.llm, input.extractor);
      const extracted = await extractIteration(extractor, sources, shapes, input, iteration, () =>
        heartbeat({ iteration }),
      );
      const staged = await withoutRetryOnRequestErrors(() =>
        stageIteration(graph, input, iteration, extracted, deps.validateEntity),
      );
      const { quality, components } = iterationQuality(extracted, staged.rejected);
      return { ...staged, quality, quality_components: components };
    },

    /** One hydrate iteration: gather context around the goal and stage RELEVANT_TO links. */
    async gatherContext({ input, iteration }: IterationRequest): Promise<Checkpoint> {
      heartbeat({ iteration });
      return withoutRetryOnRequestErrors(() => gatherContext(deps, input, iteration));
    },

    /** Settles credits (real cost kept, rest refunded, once) and records how the loop ended. */
    async finishLoop(request: FinishRequest): Promise<LoopResult> {
      const { input, status, iterations, quality, error, stopReason } = request;
      // Iterations that ran (completed their checkpoint) are charged; the rest of the reservation is refunded.
      const spent = Math.min(input.creditsReserved, input.creditsPerIteration * iterations);
      const settled = await graph.write(
        async (tx) => {
          const settledNow = await settleLoop(tx, {
            organizationId: input.organizationId,
            loopId: input.loopId,
            reserved: input.creditsReserved,
            spent,
            reason: `loop ${input.loopId} ${status} after ${iterations} iteration(s)`,
          });
          const finished = await tx.one('loops/set_finished', {
            id: input.loopId,
            status,
            iterations,
            quality,
            error,
            spent,
            stop_reason: stopReason,
          });
          // The webhook outbox, in the transaction that records the end (once: a retried finish is not first).
          if (finished?.first === true) await emitLoopEvents(tx, input, status, stopReason);
          return settledNow;
        },
        { purpose: `loop:${input.loopId}:finish` },
      );
      if (settled) {
        // Counted where the settlement happened, so a retried finish is not counted twice.
        loopOutcomes.inc({ kind: input.kind, status });
        creditsSpent.inc(spent);
      }
      if (input.kind === 'graph_extraction') {
        const [shape, sources] = await graph.read(
          async (tx) =>
            [
              await visibleShape(tx, input.projectId, input.shapeIds[0] ?? ''),
              await tx.run('loops/source_stats', { source_ids: input.sourceIds, project_id: input.projectId }),
            ] as const,
        );
        for (const source of sources) {
          await markExtractionFinished(graph, input.projectId, String(source.id), {
            shapeName: shape ? shape.name : 'unknown',
            charCount: Number(source.characters),
            tokenCount: Number(source.tokens),
            ...(status === 'failed' ? { failed: error ?? 'failed' } : {}),
          }).catch((e: unknown) => {
            // A document deleted meanwhile has nothing to mark; anything else is a real failure.
            if (!(e instanceof ApiError && e.code === 'not_found')) throw e;
          });
        }
      }
      return {
        loop_id: input.loopId,
        status,
        iterations,
        quality,
        credits_spent: spent,
        delta_id: input.deltaId,
        stop_reason: stopReason,
      };
    },
  };
}

export type LoopActivities = ReturnType<typeof createLoopActivities>;
