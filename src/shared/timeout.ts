// The one timeout: a promise that rejects when the given one has not settled within ms (a hung
// server never answers; Temporal and Neo4j calls are bounded with this).

/**
 * Rejects with "timed out after <ms> ms" when the promise has not settled within ms; its own rejection
 * passes through as an Error.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** Whether the error is withTimeout's own rejection. */
export function isTimeout(error: unknown): boolean {
  return error instanceof Error && /^timed out after \d+ ms$/.test(error.message);
}
