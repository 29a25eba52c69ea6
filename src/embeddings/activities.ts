// Activities of the reembed workflow (workflows/reembed.ts): walk the committed memories, chunks and
// entities in id order and give every one whose vector is not of the configured model a new one,
// heartbeating progress; then record the model on the vector indexes. All state lives in the graph
// (the vectors' model) and in the workflow's cursor, so a stopped re-embedding resumes.
import { ApplicationFailure, Context } from '@temporalio/activity';
import { groupsOf, REQUEST_CHARS } from './worker.js';
import type { Graph, Row } from '../db/graph.js';
import { EmbeddingsUnavailableError, type Embedder } from './model.js';
import { textHash } from './text.js';
import { nodeText } from './worker.js';

/** cypher/embeddings/reembed_scan.cypher's rows (declared, not checked). */
interface ReembedScanRow {
  id: string | null;
  element_id: string;
  labels: string[] | null;
  model: string | null;
  queued: boolean;
  /** the node's properties without its vector */
  props: Row | null;
}

export interface ReembedBatchInput {
  model: string;
  /** Last id of the previous window ('' at the start). */
  after: string;
  window: number;
  batchSize: number;
}

export interface ReembedBatchResult {
  scanned: number;
  embedded: number;
  /** Left to the embedding worker (queued by a write) or without text. */
  skipped: number;
  cursor: string;
  done: boolean;
}

export interface ReembedDeps {
  graph: Graph;
  embedder?: Embedder | null;
}

function heartbeat(details: unknown): void {
  try {
    Context.current().heartbeat(details);
  } catch {
    // not inside an activity (a direct call in a test)
  }
}

export function createEmbeddingActivities(deps: ReembedDeps) {
  const embedderFor = (model: string): Embedder => {
    const embedder = deps.embedder;
    if (!embedder)
      throw ApplicationFailure.nonRetryable(
        'this worker has no embedding engine (EMBEDDINGS=off, or no engine known to it)',
        'EmbeddingsOff',
      );
    if (embedder.model.id !== model)
      throw ApplicationFailure.nonRetryable(
        `the service now embeds with ${embedder.model.id}, not ${model}: start a new re-embedding`,
        'EmbeddingModelChanged',
      );
    return embedder;
  };
  return {
    async reembedBatch(input: ReembedBatchInput): Promise<ReembedBatchResult> {
      const embedder = embedderFor(input.model);
      const rows = await deps.graph.read((tx) =>
        tx.run<ReembedScanRow>('embeddings/reembed_scan', { after: input.after, window: input.window }),
      );
      const stale = rows.filter((r) => r.model !== input.model);
      const todo = stale
        .filter((r) => r.queued !== true)
        .map((r) => {
          const text = nodeText(r.labels ?? [], r.props ?? {});
          return { element_id: r.element_id, text, text_hash: textHash(input.model, text) };
        })
        .filter((r) => r.text !== '');
      let embedded = 0;
      const batches: (typeof todo)[] = [];
      for (let i = 0; i < todo.length; i += input.batchSize)
        batches.push(...groupsOf(todo.slice(i, i + input.batchSize), REQUEST_CHARS));
      for (const slice of batches) {
        let vectors: number[][];
        try {
          vectors = await embedder.embedPassages(slice.map((s) => s.text));
        } catch (error) {
          // The engine is down or slow: Temporal retries this window later (nothing is lost).
          if (error instanceof EmbeddingsUnavailableError)
            throw ApplicationFailure.retryable(error.message, 'EmbeddingsUnavailable');
          throw error;
        }
        const stored = await deps.graph.write((tx) =>
          tx.run('embeddings/store_reembedded', {
            model: input.model,
            rows: slice.map((s, j) => ({ element_id: s.element_id, text_hash: s.text_hash, vector: vectors[j] })),
          }),
        );
        embedded += Number(stored[0]?.stored ?? 0);
        heartbeat({ cursor: input.after, embedded });
      }
      const last = rows[rows.length - 1];
      return {
        scanned: rows.length,
        embedded,
        skipped: stale.length - embedded,
        cursor: last ? String(last.id) : input.after,
        done: rows.length < input.window,
      };
    },

    /** Every vector index now serves the model (the re-embedding walked the whole graph). */
    async reembedFinish(input: { model: string; dimensions: number }): Promise<void> {
      embedderFor(input.model);
      await deps.graph.write((tx) =>
        tx.run('embeddings/set_index_model', { model: input.model, dimensions: input.dimensions }),
      );
    },
  };
}

export type EmbeddingActivities = ReturnType<typeof createEmbeddingActivities>;
