// The catalogue of API key scopes. A key created without explicit scopes gets all of them; "admin"
// stands for every scope.
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
  'credits:read',
  'bridges:read',
  'bridges:write',
  'admin',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes('admin') || granted.includes(needed);
}
