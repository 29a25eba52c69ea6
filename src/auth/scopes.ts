// The catalogue of API key scopes. A key created without explicit scopes gets every scope but
// "admin" (DEFAULT_SCOPES); "admin" stands for every scope and is only granted when asked for.
import { ApiError } from '../errors/catalogue.js';

export const SCOPES = [
  'memories:read',
  'memories:write',
  'documents:read',
  'documents:write',
  'submissions:write',
  'search:read',
  'shapes:read',
  'shapes:write',
  'deltas:read',
  'deltas:apply',
  'preflight:run',
  'loops:read',
  'loops:run',
  'graph:read',
  'entities:write',
  'credits:read',
  'credits:write',
  'slices:read',
  'slices:write',
  'context:read',
  'context:write',
  'connections:read',
  'connections:write',
  'connections:sync',
  'bridges:read',
  'bridges:write',
  'webhooks:read',
  'webhooks:write',
  'admin',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes('admin') || granted.includes(needed);
}

/** What a key gets when it is created without explicit scopes: everything but admin. */
export const DEFAULT_SCOPES: readonly Scope[] = SCOPES.filter((s) => s !== 'admin');

/** 403 naming the scope when the key lacks it (routes that also act in another area's name). */
export function requireScope(granted: readonly string[], needed: Scope): void {
  if (!hasScope(granted, needed))
    throw new ApiError('forbidden', `This key lacks the scope ${needed}.`, { missing_scope: needed });
}
