// Small readers every connector shares: the checks of one identity call and JSON field access.
import type { CheckResult } from '../types.js';

/** A check run from one identity call: reachable when it answered, authenticated unless 401, scope when 2xx. */
export function checksFrom(status: number | null): CheckResult['checks'] {
  const reachable = status !== null && status < 500;
  return [
    { name: 'reachable', ok: reachable, http_status: status },
    { name: 'authenticated', ok: reachable && status !== 401, http_status: status },
    { name: 'scope', ok: status !== null && status >= 200 && status < 300, http_status: status },
  ];
}

/** Reads a dotted path (a.b.0.c) out of parsed JSON. */
export function pick(value: unknown, path: string | undefined): unknown {
  if (path === undefined || path === '') return value;
  let current: unknown = value;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

export function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : JSON.stringify(value);
}

/** An ISO timestamp when the value reads as a date, else null. */
export function isoOrNull(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
