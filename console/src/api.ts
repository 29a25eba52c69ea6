// The public /v1 API, called with the key held in memory only (never a URL, cookie or storage).
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

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method === 'POST') headers['Idempotency-Key'] = crypto.randomUUID();
  const res = await fetch(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const json = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string } } & T;
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

export function errorText(e: unknown): string {
  const err = e as Partial<ApiError>;
  return err.code ? `${err.code}: ${err.message}` : String(e);
}
