// The vectors of recent questions, kept in memory (EMBEDDINGS_QUESTION_CACHE entries, least recently
// used first out): the same question asked again (an agent re-asking, a dashboard, the console's
// search) is answered without a call to the engine. A vector depends only on the model and the text,
// and one process embeds with one model, so the text alone is the key. docs/embeddings.md.

export class QuestionCache {
  private readonly entries = new Map<string, number[]>();
  hits = 0;
  misses = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The cached vector of this question (now the most recently used), or undefined. */
  get(text: string): number[] | undefined {
    const vector = this.entries.get(text);
    if (vector === undefined) {
      this.misses += 1;
      return undefined;
    }
    this.hits += 1;
    this.entries.delete(text);
    this.entries.set(text, vector);
    return vector;
  }

  /** Forgets every question (benchmarks time new questions with it). */
  clear(): void {
    this.entries.clear();
  }

  set(text: string, vector: number[]): void {
    if (this.capacity === 0) return;
    this.entries.delete(text);
    this.entries.set(text, vector);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }
}
