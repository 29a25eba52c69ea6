// The embedding worker: drains the queue (nodes given embedding_queued_at by the transaction that
// applied or reverted their delta) in batches, oldest first, off the request path. While the engine
// is down it waits for the probe to see it again and then drains the backlog by itself; the queue
// lives in the graph, so a restart loses nothing.
import type { Logger } from 'pino';
import type { Graph } from '../db/graph.js';
import { INTERNAL_PROPS } from '../deltas/props.js';
import type { OpenAIEmbedder } from './client.js';
import { EmbeddingsUnavailableError, type Embedder } from './model.js';
import { chunkText, contextText, entityText, memoryText, textHash } from './text.js';
import { embeddingsEmbedded } from '../ops/metrics.js';
import type { DrainPacer } from '../shared/pacing.js';

/** A row of embeddings/queue_newest and queue_next: a queued node, its labels and its properties (declared). */
interface QueueRow {
  element_id: string;
  labels: string[];
  queued_at: unknown;
  model: string | null;
  text_hash: string | null;
  /** a memory's context hash (its context vector's text), null without one */
  context_hash: string | null;
  /** a memory's episode predecessor's content, null when it has none */
  previous: string | null;
  props: Record<string, unknown>;
}

/** A text to embed and the hash of what it is made from. */
interface Job {
  text: string;
  hash: string;
}

interface Queued {
  element_id: string;
  queued_at: unknown;
  /** its own text ('' when it has none) */
  text: string;
  /** its own vector, when its text (or the model) changed since it was made */
  own: Job | null;
  /** a memory's context vector, when it has a predecessor and that or its own text changed */
  context: Job | null;
  /** the context hash to store: the context's, the one it has (unchanged), or null (no predecessor: none) */
  contextHash: string | null;
  /** a context vector to remove (the memory has no predecessor any more) */
  dropContext: boolean;
}

/** The text a queued node is embedded from (by its labels), '' when it has none. */
export function nodeText(labels: string[], props: Record<string, unknown>): string {
  if (labels.includes('Memory')) return memoryText(props);
  if (labels.includes('Chunk')) return chunkText(props);
  if (labels.includes('Term')) return typeof props.name === 'string' ? props.name.trim() : '';
  if (labels.includes('Entity'))
    return typeof props.name === 'string' ? entityText(props.name, labels, props, INTERNAL_PROPS) : '';
  return '';
}

export class EmbeddingWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Wakes the worker at once (after a write) instead of at the next poll. */
  private woken = false;
  private listening = false;

  constructor(
    private readonly graph: Graph,
    private readonly embedder: Embedder & Pick<OpenAIEmbedder, 'health'>,
    private readonly logger: Logger,
    private readonly options: {
      batchSize: number;
      idleMs?: number;
      /** How long a queued node counts as fresh (FRESH_MS). */
      freshMs?: number;
      /** Live requests first: each batch waits for its turn (src/shared/pacing.ts); none, the drain runs flat out. */
      pacer?: DrainPacer;
    },
  ) {}

  start(): void {
    this.stopped = false;
    if (!this.listening) {
      this.listening = true;
      this.embedder.health.onChange((up) => {
        if (up) this.wake();
      });
    }
    this.schedule(0);
  }

  /** Asks for a pass soon (the next poll would find the work anyway). */
  wake(): void {
    this.woken = true;
    if (!this.running && !this.stopped) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /**
   * Embeds queued nodes until the queue is empty or the engine is unavailable; resolves the number
   * embedded. The scheduled passes also stop at stop(); a direct call (a benchmark) runs to the end,
   * or for at most maxBatches batches.
   */
  async drain(untilStopped = false, maxBatches = Number.POSITIVE_INFINITY): Promise<number> {
    let total = 0;
    for (let batches = 0; batches < maxBatches; batches += 1) {
      if ((untilStopped && this.stopped) || !this.embedder.available() || !this.graph.health.isUp()) return total;
      const pacer = this.options.pacer;
      const done = pacer ? await pacer.paced(() => this.batch()) : await this.batch();
      total += done.embedded;
      if (done.read < this.options.batchSize) return total;
    }
    return total;
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.pass().finally(() => {
        this.running = undefined;
        if (!this.stopped) this.schedule(this.woken ? 0 : (this.options.idleMs ?? 1_000));
      });
    }, ms).unref();
  }

  private async pass(): Promise<void> {
    this.woken = false;
    try {
      await this.drain(true);
    } catch (error) {
      if (!(error instanceof EmbeddingsUnavailableError))
        this.logger.warn({ err: error }, 'embedding worker: a pass failed; the queue keeps its nodes');
    }
  }

  /**
   * One batch: read queued nodes, embed the ones whose text changed, store, dequeue. Fresh nodes (queued within
   * freshMs) take up to three quarters of the batch, newest first: what was just written is what users recall next,
   * so it is found by meaning within a batch or two even behind a bulk import's backlog. The rest of the batch, and
   * whatever the fresh leave, goes to the oldest, so the backlog always drains: a batch of fresh nodes only left it
   * waiting for as long as anything was written (issue 58: after an outage, writers writing a few memories a
   * second kept the memories queued during it unembedded for minutes).
   */
  private async batch(): Promise<{ read: number; embedded: number }> {
    const model = this.embedder.model;
    const limit = this.options.batchSize;
    const since = new Date(Date.now() - (this.options.freshMs ?? FRESH_MS)).toISOString();
    const freshLimit = Math.max(1, limit - Math.ceil(limit * OLDEST_SHARE));
    const [fresh, oldest] = await this.graph.read((tx) =>
      tx.runAll<[QueueRow[], QueueRow[]]>([
        ['embeddings/queue_newest', { limit: freshLimit, since }],
        ['embeddings/queue_next', { limit }],
      ]),
    );
    const taken = new Set(fresh.map((row) => row.element_id));
    const rows = [...fresh, ...oldest.filter((row) => !taken.has(row.element_id))].slice(0, limit);
    const items = rows.map((row) => toQueued(row, model.id));
    const unchanged = items.filter((i) => (!i.own && !i.context && !i.dropContext) || i.text === '');
    if (unchanged.length > 0)
      await this.graph.write((tx) =>
        tx.run('embeddings/dequeue', {
          rows: unchanged.map((i) => ({
            element_id: i.element_id,
            queued_at: i.queued_at,
            keep: i.text !== '',
            reason: null,
          })),
        }),
      );
    const todo = items.filter((i) => !unchanged.includes(i));
    let embedded = 0;
    // One request per group of at most REQUEST_CHARS of text, each stored as soon as it is back.
    for (const group of groupsOf(todo, REQUEST_CHARS, jobChars)) embedded += await this.embedGroup(group);
    return { read: rows.length, embedded };
  }

  private async embedGroup(todo: Queued[]): Promise<number> {
    let vectors: number[][];
    const texts = todo.flatMap(jobsOf).map((j) => j.text);
    try {
      // Only context vectors to remove: nothing to ask the engine.
      vectors = texts.length === 0 ? [] : await this.embedder.embedPassages(texts);
    } catch (error) {
      if (error instanceof EmbeddingsUnavailableError && error.reason === 'failed' && todo.length > 1)
        return this.oneByOne(todo);
      if (error instanceof EmbeddingsUnavailableError && error.reason === 'failed') {
        await this.refuse(todo, error.message);
        return 0;
      }
      throw error;
    }
    await this.store(todo, vectors);
    return todo.length;
  }

  /** A batch the engine refused: each text alone, so one bad text does not hold back the rest. */
  private async oneByOne(todo: Queued[]): Promise<number> {
    let embedded = 0;
    for (const item of todo) {
      try {
        await this.store([item], await this.embedder.embedPassages(jobsOf(item).map((j) => j.text)));
        embedded += 1;
      } catch (error) {
        if (!(error instanceof EmbeddingsUnavailableError) || error.reason !== 'failed') throw error;
        await this.refuse([item], error.message);
      }
    }
    return embedded;
  }

  private async refuse(items: Queued[], reason: string): Promise<void> {
    this.logger.warn(
      { count: items.length, reason },
      'embedding worker: the engine refused texts; left without vector',
    );
    await this.graph.write((tx) =>
      tx.run('embeddings/dequeue', {
        rows: items.map((i) => ({ element_id: i.element_id, queued_at: i.queued_at, keep: false, reason })),
      }),
    );
  }

  /** Stores each item's vectors, given in the order of its jobs (own, then context). */
  private async store(items: Queued[], vectors: number[][]): Promise<void> {
    let next = 0;
    const rows = items.map((item) => {
      const own = item.own ? vectors[next++] : null;
      const context = item.context ? vectors[next++] : null;
      return {
        element_id: item.element_id,
        queued_at: item.queued_at,
        text_hash: item.own?.hash ?? null,
        vector: own ?? null,
        context: context ?? null,
        context_hash: item.contextHash,
      };
    });
    await this.graph.write((tx) => tx.run('embeddings/store_vectors', { rows, model: this.embedder.model.id }), {
      purpose: 'embeddings:store',
    });
    embeddingsEmbedded.inc(items.length);
  }
}

function toQueued(row: QueueRow, modelId: string): Queued {
  const text = nodeText(row.labels, row.props);
  const hash = textHash(modelId, text);
  const own = row.model === modelId && row.text_hash === hash ? null : { text, hash };
  // A memory of an episode has a context vector: its predecessor's text and its own, or its own alone when it opens
  // the episode (so an opening line is found by the context channel as every reply after it is).
  const inEpisode = row.previous !== null || typeof row.props.episode === 'string';
  if (!row.labels.includes('Memory') || !inEpisode || text === '') {
    const dropContext = row.context_hash !== null && row.context_hash !== undefined;
    return {
      element_id: row.element_id,
      queued_at: row.queued_at,
      text,
      own,
      context: null,
      contextHash: null,
      dropContext,
    };
  }
  const context = contextText(row.previous ?? '', row.props);
  const contextHash = textHash(modelId, context);
  return {
    element_id: row.element_id,
    queued_at: row.queued_at,
    text,
    own,
    context: row.model === modelId && row.context_hash === contextHash ? null : { text: context, hash: contextHash },
    contextHash,
    dropContext: false,
  };
}

/** The texts an item sends to the engine, in the order its vectors are stored: its own, then its context. */
function jobsOf(item: Queued): Job[] {
  return [item.own, item.context].filter((j): j is Job => j !== null);
}

/** The characters an item sends to the engine. */
function jobChars(item: Queued): number {
  return jobsOf(item).reduce((n, j) => n + j.text.length, 0);
}

/**
 * Text sent to the engine in one request at most (characters; a longer single text goes alone). A
 * batch of sixteen document chunks near the 4,000-character cut is some 8,000 tokens: on one thread
 * of a busy 2-core machine that outlasted the batch timeout, and the same batch timed out again and
 * again. Small requests keep every one well inside it and store progress as it comes; and since the
 * engine answers one request at a time, a question (embedded before any waiting passage request,
 * OpenAIEmbedder) waits at most for the one small request already running: with 6,000 characters a
 * search behind a draining backlog took 0.8 s at p50 (bench/gauntlet.ts), at 1,500 characters the
 * drain keeps its rate (the engine gains little from larger batches on a CPU).
 */
export const REQUEST_CHARS = 1_500;

/** Nodes queued within this long are fresh: embedded before the older backlog. */
export const FRESH_MS = 60_000;

/** The share of every batch kept for the oldest queued nodes, however many fresh ones wait. */
export const OLDEST_SHARE = 0.25;

/** Consecutive groups whose texts add up to at most `limit` characters (each group holds one at least). */
export function groupsOf<T extends { text: string }>(
  items: readonly T[],
  limit: number,
  charsOf: (item: T) => number = (item) => item.text.length,
): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    const chars = charsOf(item);
    if (current.length > 0 && size + chars > limit) {
      groups.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += chars;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
