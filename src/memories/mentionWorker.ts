// The mention worker (docs/recall.md, "Hops"): reads, off the request path, the terms each committed memory
// mentions (src/extractor/recallTerms.ts) and links them, (:Memory)-[:MENTIONS {role}]->(:Term), for recall to
// walk. It drains the queue the applying transaction set (mentions_queued_at), oldest first, in small batches, like
// the embedding worker; it needs no engine, so it runs with EMBEDDINGS=off too. The queue lives in the graph, so a
// restart loses nothing.
import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { Graph, Tx } from '../db/graph.js';
import { recallTerms, type RecallTerm } from '../extractor/recallTerms.js';
import type { DrainPacer } from '../shared/pacing.js';
import { embeddingQueueEnabled } from '../embeddings/queue.js';

/** What a queued memory is read from (cypher/memories/terms_next.cypher; declared, not checked). */
interface TermsRow {
  element_id: string;
  queued_at: unknown;
  hash: string | null;
  content: string | null;
  subject: string | null;
  object: string | null;
}

/** The statement that reads the queue's size and its oldest entry (/v1/status `mentions`, /metrics). */
export const MENTIONS_BACKLOG = 'memories/terms_backlog';

/**
 * Memories the worker reads in one batch, for the embedding worker's batch size: four times as many (reading terms
 * needs no engine; a batch stays small enough that a request arriving meanwhile waits little for it).
 */
export const mentionBatchSize = (embeddingsBatchSize: number): number => embeddingsBatchSize * 4;

/** Bumped when recallTerms reads text differently: every memory's terms are then read again as it is queued. */
const READER = 'recall-terms/4';

/** The hash of what a memory's terms are read from. */
export function termsHash(row: Pick<TermsRow, 'content' | 'subject' | 'object'>): string {
  return crypto
    .createHash('sha256')
    .update(READER)
    .update('\u0000')
    .update(row.content ?? '')
    .update('\u0000')
    .update(row.subject ?? '')
    .update('\u0000')
    .update(row.object ?? '')
    .digest('hex');
}

export class MentionWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly graph: Graph,
    private readonly logger: Logger,
    private readonly options: {
      batchSize: number;
      idleMs?: number;
      /** Live requests first: each batch waits for its turn (src/shared/pacing.ts), as the embedding worker's. */
      pacer?: DrainPacer;
    },
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Reads queued memories until the queue is empty (or stop); resolves the number read. */
  async drain(untilStopped = false): Promise<number> {
    let total = 0;
    for (;;) {
      if ((untilStopped && this.stopped) || !this.graph.health.isUp()) return total;
      const pacer = this.options.pacer;
      const read = pacer ? await pacer.paced(() => this.batch()) : await this.batch();
      total += read;
      if (read < this.options.batchSize) return total;
    }
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.pass().finally(() => {
        this.running = undefined;
        if (!this.stopped) this.schedule(this.options.idleMs ?? 1_000);
      });
    }, ms).unref();
  }

  private async pass(): Promise<void> {
    try {
      await this.drain(true);
    } catch (error) {
      this.logger.warn({ err: error }, 'mention worker: a pass failed; the queue keeps its memories');
    }
  }

  private async batch(): Promise<number> {
    const rows = await this.graph.read((tx) =>
      tx.run<TermsRow>('memories/terms_next', { limit: this.options.batchSize }),
    );
    if (rows.length === 0) return 0;
    const stored: { element_id: string; queued_at: unknown; hash: string; terms: RecallTerm[] | null }[] = [];
    for (const row of rows) {
      // Reading a memory's terms is this thread's own work (~1 ms): a request arriving meanwhile goes first.
      await this.options.pacer?.between();
      const hash = termsHash(row);
      // Unchanged since its terms were read (an update of another field): it only leaves the queue.
      const terms =
        hash === row.hash
          ? null
          : recallTerms(row.content ?? '', { subject: row.subject, object: row.object }).map((t) => ({ ...t }));
      stored.push({ element_id: row.element_id, queued_at: row.queued_at, hash, terms });
    }
    await this.graph.write((tx) => tx.run('memories/terms_store', { rows: stored, embed: embeddingQueueEnabled() }), {
      purpose: 'mentions:store',
    });
    return rows.length;
  }
}

/** Queues, in a revert's transaction, the memories it restores or changes back for the mention worker. */
export async function queueRevertedForMentions(tx: Tx, params: { delta_id: string; now: string }): Promise<void> {
  await tx.run('memories/terms_queue_delta', params);
}
