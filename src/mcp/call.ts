// What every MCP handler shares: the API call as the session's key, the session, scope checks and
// the one-line text of an API error.
import type { Scope } from '../auth/scopes.js';

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** Sends one API request as the session's key. */
export type ApiCall = (method: string, path: string, body: Record<string, unknown> | undefined) => Promise<ApiAnswer>;

export interface SessionInfo {
  scopes: readonly string[];
  /** The key's project; null for an organization key (which names project_id per tool call). */
  projectId: string | null;
}

export function hasScope(scopes: readonly string[], scope: string | undefined): boolean {
  return !scope || scopes.includes('admin') || scopes.includes(scope as Scope);
}

export function errorText(body: Record<string, unknown>): string {
  const err = (body.error ?? {}) as { code?: string; message?: string; details?: { fields?: unknown } };
  const fields = Array.isArray(err.details?.fields)
    ? (err.details.fields as { field?: string; reason?: string }[]).map((f) =>
        `${f.field ?? '?'} ${f.reason ?? ''}`.trim(),
      )
    : [];
  return `${err.code ?? 'error'}: ${err.message ?? 'request failed'}${fields.length ? ` (${fields.join('; ')})` : ''}`;
}
