// API keys: issued as gks_<lookup>_<secret>; only a SHA-256 hash of the secret is stored, found by
// its public lookup token and compared in constant time. Known keys are never cached, so revocation
// is immediate; only keys found unknown are remembered briefly, so repeating one costs no read.
import crypto from 'node:crypto';
import type { Graph } from '../db/graph.js';
import { DEFAULT_SCOPES, hasScope, type Scope } from './scopes.js';

export const KEY_PREFIX = 'gks_';
const KEY_PATTERN = /^gks_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{32,64})$/;

export interface AuthContext {
  keyId: string;
  organizationId: string;
  /** Set for project-scoped keys. */
  projectId: string | null;
  scopes: string[];
  /** apply: writes apply as asked; stage: every governed write of the key stages for review. */
  writes: 'apply' | 'stage';
}

export interface IssuedKey {
  id: string;
  key: string;
  scopes: string[];
  organization_id: string;
  project_id: string | null;
  writes: 'apply' | 'stage';
}

function sha256(text: string): Buffer {
  return crypto.createHash('sha256').update(text).digest();
}

function randomToken(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.randomBytes(length);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}

/** A key as auth/create_key, auth/find_key (with its secret's hash) and auth/key_standing return it. */
interface KeyRow {
  id: string;
  organization_id: string;
  project_id: string | null;
  scopes: string[] | null;
  writes: string | null;
  secret_hash?: string;
  revoked?: boolean;
  orphaned?: boolean;
}

export async function issueKey(
  graph: Graph,
  options: {
    organizationId: string;
    projectId?: string | null;
    scopes?: Scope[];
    name?: string;
    writes?: 'apply' | 'stage';
  },
): Promise<IssuedKey> {
  const lookup = randomToken(12);
  const secret = crypto.randomBytes(32).toString('base64url');
  const scopes = options.scopes && options.scopes.length > 0 ? [...new Set(options.scopes)] : [...DEFAULT_SCOPES];
  const row = await graph.write((tx) =>
    tx.one<KeyRow>('auth/create_key', {
      id: crypto.randomUUID(),
      lookup,
      secret_hash: sha256(secret).toString('hex'),
      name: options.name ?? null,
      scopes,
      organization_id: options.organizationId,
      project_id: options.projectId ?? null,
      writes: options.writes ?? 'apply',
    }),
  );
  if (!row) {
    throw new Error(
      options.projectId
        ? `project ${options.projectId} does not exist in organization ${options.organizationId}`
        : `organization ${options.organizationId} does not exist`,
    );
  }
  return {
    id: row.id,
    key: `${KEY_PREFIX}${lookup}_${secret}`,
    scopes,
    organization_id: row.organization_id,
    project_id: row.project_id,
    writes: row.writes === 'stage' ? 'stage' : 'apply',
  };
}

export type KeyCheck = { ok: true; auth: AuthContext } | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' };

/**
 * Presented keys found unknown (no such lookup token, wrong secret, project gone), by hash, for a
 * short time. An unknown key does not become valid: lookup tokens and secrets are random (a key
 * issued with a lookup token probed in the last minute is a 1 in 62^12 chance).
 */
export class UnknownKeyCache {
  private readonly entries = new Map<string, number>();
  constructor(
    private readonly ttlMs = 60_000,
    private readonly max = 10_000,
  ) {}

  has(presented: string): boolean {
    const key = sha256(presented).toString('hex');
    const until = this.entries.get(key);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.entries.delete(key);
    return false;
  }

  add(presented: string): void {
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(sha256(presented).toString('hex'), Date.now() + this.ttlMs);
  }
}

export async function verifyKey(graph: Graph, presented: string, unknownKeys?: UnknownKeyCache): Promise<KeyCheck> {
  const match = KEY_PATTERN.exec(presented);
  if (!match) return { ok: false, reason: 'malformed' };
  if (unknownKeys?.has(presented)) return { ok: false, reason: 'unknown' };
  const [, lookup, secret] = match as unknown as [string, string, string];
  const row = await graph.readOne<KeyRow>('auth/find_key', { lookup }, { purpose: 'authenticate' });
  const presentedHash = sha256(secret);
  const storedHash = Buffer.from(row ? String(row.secret_hash) : '0'.repeat(64), 'hex');
  const equal = storedHash.length === presentedHash.length && crypto.timingSafeEqual(storedHash, presentedHash);
  if (!row || !equal || row.orphaned === true) {
    unknownKeys?.add(presented);
    return { ok: false, reason: 'unknown' };
  }
  if (row.revoked === true) return { ok: false, reason: 'revoked' };
  return {
    ok: true,
    auth: {
      keyId: row.id,
      organizationId: row.organization_id,
      projectId: row.project_id,
      scopes: row.scopes ?? [],
      writes: row.writes === 'stage' ? 'stage' : 'apply',
    },
  };
}

/**
 * Whether the key with this id may still act for a project with a scope: work that runs later on a
 * key's behalf (a scheduled sync, its apply_if_safe) asks this each time, so revoking the key or
 * narrowing it stops that work too. Null when it may; otherwise why not.
 */
export async function keyMayAct(
  graph: Graph,
  keyId: string,
  projectId: string,
  organizationId: string,
  scope: Scope,
): Promise<null | 'unknown' | 'revoked' | 'scope' | 'project'> {
  const row = await graph.read((tx) => tx.one<KeyRow>('auth/key_standing', { id: keyId }));
  if (!row || row.orphaned === true) return 'unknown';
  if (row.revoked === true) return 'revoked';
  if (row.organization_id !== organizationId) return 'project';
  if (row.project_id !== null && row.project_id !== projectId) return 'project';
  return hasScope(row.scopes ?? [], scope) ? null : 'scope';
}

/** Keys (never their secrets), of one organization or of all. */
/** A key as auth/list_keys lists it: never its secret, only its public hint (declared, not checked). */
export interface KeyListRow {
  id: string;
  name: string | null;
  scopes: string[];
  organization_id: string;
  project_id: string | null;
  created_at: string;
  revoked_at: string | null;
  key_hint: string;
}

export async function listKeys(graph: Graph, organizationId: string | null): Promise<KeyListRow[]> {
  return graph.read((tx) => tx.run<KeyListRow>('auth/list_keys', { organization_id: organizationId }));
}

/** Revokes a key (effective on its next request); null when there is no such key. */
export async function revokeKey(graph: Graph, keyId: string): Promise<{ revoked_at: string } | null> {
  const row = await graph.write((tx) => tx.one<{ id: string; revoked_at: string }>('auth/revoke_key', { id: keyId }));
  return row ? { revoked_at: row.revoked_at } : null;
}
