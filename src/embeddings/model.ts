// The stable interface of recall by meaning (docs/embeddings.md): what an embedder offers, the typed
// error it throws while the engine is down, and the names knowledge engineers see in the graph (the
// vector indexes and the per-node properties, the queue among them).

/** The model that makes the vectors: its id (recorded on every node and index) and dimensions. */
export interface EmbeddingModel {
  id: string;
  dimensions: number;
}

/**
 * Turns text into vectors. Queries (questions, search strings) and passages (stored text) are embedded
 * differently: e5 models are trained with the two roles apart. Every call is bounded in time and fails
 * fast with EmbeddingsUnavailableError while the engine is known to be down.
 */
export interface Embedder {
  readonly model: EmbeddingModel;
  /**
   * The engine runs on this machine's cores (the embedded engine): a question's embedding is then CPU work that the
   * service's own statements slow down if run beside it, so recall embeds first (src/memories/graphRecall.ts).
   */
  readonly sharesCores?: boolean;
  /** False while the engine is known to be down (calls then throw at once, without a request). */
  available(): boolean;
  /** False while no engine can embed a question (the questions' own engine, or the main one, answers). */
  queriesAvailable(): boolean;
  /** One vector per text, in order, of model.dimensions numbers, L2-normalized by the engine or here. */
  embedQueries(texts: string[]): Promise<number[][]>;
  /** The vector of a question asked before (the cache of question vectors), asked of no engine. */
  cachedQuestion?(text: string): number[] | undefined;
  embedPassages(texts: string[]): Promise<number[][]>;
  /**
   * Passages a read needs at once (a few items known_at puts back, docs/facts.md): on the questions'
   * engine while it answers, else this one without waiting for questions, bounded like a question.
   */
  embedPassagesNow?(texts: string[]): Promise<number[][]>;
}

/** What a service that recalls by meaning is given: null when EMBEDDINGS=off (lexical only). */
export interface EmbedderDeps {
  embedder: Embedder | null;
}

/** The embedding engine cannot answer now (down, timed out, or answered something unusable). */
export class EmbeddingsUnavailableError extends Error {
  constructor(
    message: string,
    readonly reason: 'down' | 'timeout' | 'failed',
    /** What a client may be told to wait before retrying. */
    readonly retryAfterSeconds = 5,
  ) {
    super(message);
    this.name = 'EmbeddingsUnavailableError';
  }
}

/** The kinds of node that carry a vector, with their vector index. */
export const EMBEDDED_KINDS = ['memory', 'chunk', 'entity'] as const;
export type EmbeddedKind = (typeof EMBEDDED_KINDS)[number];

export const VECTOR_INDEXES: Readonly<Record<EmbeddedKind, { index: string; label: string }>> = {
  memory: { index: 'memory_embedding', label: 'Memory' },
  chunk: { index: 'chunk_embedding', label: 'Chunk' },
  entity: { index: 'entity_embedding', label: 'Entity' },
};

/**
 * A memory's second vector, made from its episode predecessor's text and its own (docs/recall.md, "Context"), in
 * `context_embedding` with its hash in `context_text_hash`; its model is the memory's embedding_model.
 */
export const CONTEXT_VECTOR_INDEX = 'memory_context_embedding';

/** The vector index of terms' names (docs/recall.md, "Hops"): the hops walk from the terms nearest the question. */
export const TERM_VECTOR_INDEX = 'term_embedding';

/** Node properties the embedding worker owns (never in API views, change records or hashes). */
export const EMBEDDING_PROPS = {
  /** The vector (LIST<FLOAT>), indexed by the kind's vector index. */
  vector: 'embedding',
  /** EmbeddingModel.id of the model that made it; search only compares vectors of the current model. */
  model: 'embedding_model',
  /** sha256 of the text that was embedded, so an update that does not change the text costs nothing. */
  textHash: 'embedding_text_hash',
  /**
   * The queue: set (DATETIME) while the node waits for a vector, by the transaction that applied or
   * reverted its delta; removed when the vector is stored. The oldest one is the backlog's age.
   */
  queuedAt: 'embedding_queued_at',
  /** Why the engine refused the node's text (it then has no vector), else absent. */
  error: 'embedding_error',
} as const;
