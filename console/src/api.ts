// The public /v1 API, called with the key held in memory only (never a URL, cookie or storage).
// A 503 (a dependency down: the API refuses fast with Retry-After) is retried with backoff while the
// page shows "service unavailable, retrying"; a POST keeps its Idempotency-Key across the retries,
// so a write the service did make is never made twice.
export interface ApiError {
  status: number;
  code: string;
  message: string;
}

let key: string | null = null;

export function signIn(k: string): void {
  key = k;
}
export function signOut(): void {
  key = null;
}

/** Told when a request waits to be retried (attempt ≥ 1, seconds to wait) and when it stops waiting (null). */
type RetryListener = (retry: { attempt: number; waitSeconds: number; path: string } | null) => void;
let onRetry: RetryListener = () => undefined;
export function whenRetrying(listener: RetryListener): void {
  onRetry = listener;
}

/** Attempts after the first; the waits grow 1, 2, 4, 8, 15, 15 … s, or what Retry-After asks (capped at 30 s). */
export const MAX_RETRIES = 8;
function backoff(attempt: number, retryAfter: string | null): number {
  const asked = Number(retryAfter);
  if (retryAfter && Number.isFinite(asked) && asked >= 0) return Math.min(asked, 30);
  return Math.min(2 ** (attempt - 1), 15);
}

/** Waits, or stops waiting when `signal` aborts (the call's deadline passed). */
const sleep = (seconds: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, seconds * 1000);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

export interface CallOptions {
  /**
   * The longest the call may take in all, its retries included; past it the call is abandoned and fails with
   * code `timeout` (a write the service was making may still finish: read the resource back to know).
   */
  deadlineMs?: number;
}

/** The error of a call abandoned at its deadline. */
export const TIMED_OUT = 'timeout';

export async function api<T>(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method === 'POST') headers['Idempotency-Key'] = crypto.randomUUID();
  const deadline = new AbortController();
  const timer = options.deadlineMs === undefined ? null : setTimeout(() => deadline.abort(), options.deadlineMs);
  const timedOut = (): ApiError => ({
    status: 0,
    code: TIMED_OUT,
    message: `No answer within ${Math.round((options.deadlineMs ?? 0) / 1000)} s.`,
  });
  try {
    for (let attempt = 0; ; attempt += 1) {
      let res: Response | null;
      try {
        res = await fetch(path, {
          method,
          headers,
          signal: deadline.signal,
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
      } catch {
        if (deadline.signal.aborted) throw timedOut();
        res = null; // the service itself unreachable: retried like a 503
      }
      if ((res === null || res.status === 503) && attempt < MAX_RETRIES) {
        const wait = backoff(attempt + 1, res?.headers.get('Retry-After') ?? null);
        onRetry({ attempt: attempt + 1, waitSeconds: wait, path });
        await sleep(wait, deadline.signal);
        if (deadline.signal.aborted) throw timedOut();
        continue;
      }
      if (attempt > 0) onRetry(null);
      if (res === null) throw { status: 0, code: 'unreachable', message: 'The service cannot be reached.' };
      // A body cut off by the deadline is no answer; one that is not JSON reads as empty.
      const read: unknown = await res.json().catch(() => (deadline.signal.aborted ? null : {}));
      if (read === null && deadline.signal.aborted) throw timedOut();
      const json = (read ?? {}) as { error?: { code?: string; message?: string } } & T;
      if (!res.ok) {
        const err: ApiError = {
          status: res.status,
          code: json.error?.code ?? 'error',
          message: json.error?.message ?? `HTTP ${res.status}`,
        };
        throw err;
      }
      return json;
    }
  } finally {
    if (timer !== null) clearTimeout(timer);
    if (deadline.signal.aborted) onRetry(null);
  }
}

export function errorText(e: unknown): string {
  const err = e as Partial<ApiError>;
  return err.code ? `${err.code}: ${err.message}` : String(e);
}
