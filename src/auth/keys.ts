// API keys: issued as gks_<lookup>_<secret>; only a SHA-256 hash of the secret is stored, found by
// its public lookup token and compared in constant time. Keys found unknown are remembered briefly, so
// repeating one costs no read. Of a known key only what never changes is remembered (KnownKeyCache);
// whether it still stands is read again for every request, so revocation is immediate.
import crypto from 'node:crypto';
import type { Graph, Row, StandingCheck } from '../db/graph.js';
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

export type KeyRefusal = 'malformed' | 'unknown' | 'revoked';

/**
 * A key that checks out, with the standing check its request still has to pass when the key was known
 * (KnownKeyCache): the request's first transaction reads it (Graph.withStanding).
 */
export type KeyCheck = { ok: true; auth: AuthContext; standing?: StandingCheck } | { ok: false; reason: KeyRefusal };

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

/**
 * Keys found valid, by lookup token: what never changes of a key (its id, organization, project, scopes and
 * writes mode; no statement updates them) with its secret's hash. A request presenting one of them skips the
 * key lookup, its own round trip; whether the key still stands (not revoked, its project not gone) is read
 * instead in the request's first transaction, pipelined with its first statement, and that transaction
 * commits only if it does. Revoking a key therefore refuses its very next request, here or in any process.
 */
export class KnownKeyCache {
  private readonly entries = new Map<string, { secretHash: Buffer; auth: AuthContext; until: number }>();
  constructor(
    private readonly ttlMs = 10 * 60_000,
    private readonly max = 10_000,
  ) {}

  /** The key's context when this lookup token is known and the secret's hash is its own (constant time). */
  find(lookup: string, secretHash: Buffer): AuthContext | undefined {
    const entry = this.entries.get(lookup);
    if (!entry) return undefined;
    if (entry.until <= Date.now()) {
      this.entries.delete(lookup);
      return undefined;
    }
    // Each request gets its own copy: nothing one handler does to its context reaches another request.
    return crypto.timingSafeEqual(entry.secretHash, secretHash)
      ? { ...entry.auth, scopes: [...entry.auth.scopes] }
      : undefined;
  }

  remember(lookup: string, secretHash: Buffer, auth: AuthContext): void {
    this.entries.delete(lookup);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(lookup, {
      secretHash,
      auth: { ...auth, scopes: [...auth.scopes] },
      until: Date.now() + this.ttlMs,
    });
  }

  forget(lookup: string): void {
    this.entries.delete(lookup);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The statement a known key's standing check reads, and its parameters (the read rehearsal asks it the same way). */
export const keyStandingStatement = (keyId: string): Pick<StandingCheck, 'name' | 'params'> => ({
  name: 'auth/key_standing',
  params: { id: keyId, project_id: null },
});

/** A known key's standing check (auth/key_standing): it refuses a key revoked, deleted or left without its project. */
function keyStanding(
  lookup: string,
  auth: AuthContext,
  knownKeys: KnownKeyCache,
  refuse: (reason: KeyRefusal) => Error,
): StandingCheck {
  return {
    ...keyStandingStatement(auth.keyId),
    refusal(row: Row | undefined): Error | null {
      const reason = !row || row.orphaned === true ? 'unknown' : row.revoked === true ? 'revoked' : null;
      if (reason === null) return null;
      knownKeys.forget(lookup);
      return refuse(reason);
    },
  };
}

/**
 * Checks a presented key. With knownKeys, a key found valid is remembered, and a remembered one is answered
 * without a read, with the standing check its request must pass (refuse makes that check's error).
 */
export async function verifyKey(
  graph: Graph,
  presented: string,
  unknownKeys?: UnknownKeyCache,
  known?: { keys: KnownKeyCache; refuse: (reason: KeyRefusal) => Error },
): Promise<KeyCheck> {
  const match = KEY_PATTERN.exec(presented);
  if (!match) return { ok: false, reason: 'malformed' };
  if (unknownKeys?.has(presented)) return { ok: false, reason: 'unknown' };
  const [, lookup, secret] = match as unknown as [string, string, string];
  const presentedHash = sha256(secret);
  const remembered = known?.keys.find(lookup, presentedHash);
  if (known && remembered)
    return { ok: true, auth: remembered, standing: keyStanding(lookup, remembered, known.keys, known.refuse) };
  const row = await graph.readOne<KeyRow>('auth/find_key', { lookup }, { purpose: 'authenticate' });
  const storedHash = Buffer.from(row ? String(row.secret_hash) : '0'.repeat(64), 'hex');
  const equal = storedHash.length === presentedHash.length && crypto.timingSafeEqual(storedHash, presentedHash);
  if (!row || !equal || row.orphaned === true) {
    unknownKeys?.add(presented);
    return { ok: false, reason: 'unknown' };
  }
  if (row.revoked === true) return { ok: false, reason: 'revoked' };
  const auth: AuthContext = {
    keyId: row.id,
    organizationId: row.organization_id,
    projectId: row.project_id,
    scopes: row.scopes ?? [],
    writes: row.writes === 'stage' ? 'stage' : 'apply',
  };
  known?.keys.remember(lookup, presentedHash, auth);
  return { ok: true, auth };
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
  const row = await graph.read((tx) => tx.one<KeyRow>('auth/key_standing', { id: keyId, project_id: null }));
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
