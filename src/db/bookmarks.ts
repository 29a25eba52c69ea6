// Causal consistency across requests and processes (docs/operations.md, "Consistency across requests"): a request
// answers the bookmark of the graph state it saw or wrote as the X-Graph-Bookmark header, an opaque token a later
// request (to this process or any other) may send back; that request's transactions then begin only once the
// database it reaches holds that state. On a cluster this keeps "write, then read it back" true when the read is
// routed to a follower. The token is Neo4j's own bookmarks, signed (HMAC-SHA256 under a key derived from
// GKS_SECRETS_KEY, which every process of a deployment shares) so that a client cannot hand the database a
// bookmark of a state it has not reached, which would hold a server thread until Neo4j's bookmark wait runs out.
import crypto from 'node:crypto';
import { invalid } from '../errors/catalogue.js';

/** The header that carries a token, both ways. */
export const BOOKMARK_HEADER = 'X-Graph-Bookmark';
/** Where a refusal points (a request's field, as JSON pointers name body and query fields). */
export const BOOKMARK_FIELD = '/headers/x-graph-bookmark';
/** A token, as published: base64url parts separated by dots (v1.<bookmarks>[.<signature>]). */
export const BOOKMARK_TOKEN_PATTERN = '^v1\\.[A-Za-z0-9_-]{1,2048}(\\.[A-Za-z0-9_-]{22})?$';
/** Most bookmarks one token carries, and most tokens one request may send (a client that merged a few answers). */
export const MAX_BOOKMARKS = 8;

const TOKEN = new RegExp(BOOKMARK_TOKEN_PATTERN);
const SIGNATURE_BYTES = 16;

/** Makes and reads tokens; signed when the deployment has a secrets key, else plain (documented). */
export class BookmarkTokens {
  private readonly key: Buffer | null;

  constructor(secretsKey: Buffer | null) {
    this.key = secretsKey && crypto.createHash('sha256').update('gks-graph-bookmark').update(secretsKey).digest();
  }

  /** The token for a request's answer: its bookmarks (at most MAX_BOOKMARKS, the latest kept). */
  issue(bookmarks: readonly string[]): string {
    const body = Buffer.from(JSON.stringify(bookmarks.slice(-MAX_BOOKMARKS))).toString('base64url');
    return this.key ? `v1.${body}.${this.sign(body)}` : `v1.${body}`;
  }

  /**
   * The bookmarks of the tokens a request sent (the header's value: one token, or several separated by commas),
   * or the 400 naming the header when one is malformed, unsigned where tokens are signed, or signed by another key.
   */
  read(header: string): string[] {
    const tokens = header
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '');
    if (tokens.length > MAX_BOOKMARKS) throw refusal(`carries more than ${MAX_BOOKMARKS} tokens`);
    const bookmarks = new Set<string>();
    for (const token of tokens) for (const b of this.readOne(token)) bookmarks.add(b);
    return [...bookmarks];
  }

  private readOne(token: string): string[] {
    if (!TOKEN.test(token)) throw refusal('is not a token this service answered');
    const [, body = '', signature] = token.split('.');
    if (this.key) {
      const expected = Buffer.from(this.sign(body), 'base64url');
      const given = Buffer.from(signature ?? '', 'base64url');
      if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected))
        throw refusal('was not answered by this deployment (its signature does not match)');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw refusal('is not a token this service answered');
    }
    if (
      !Array.isArray(parsed) ||
      parsed.length > MAX_BOOKMARKS ||
      !parsed.every((b): b is string => typeof b === 'string' && b.length > 0 && b.length <= 256)
    )
      throw refusal('is not a token this service answered');
    return parsed;
  }

  private sign(body: string): string {
    return crypto
      .createHmac('sha256', this.key as Buffer)
      .update(body)
      .digest()
      .subarray(0, SIGNATURE_BYTES)
      .toString('base64url');
  }
}

function refusal(reason: string) {
  return invalid(BOOKMARK_FIELD, reason, `${BOOKMARK_HEADER} ${reason}.`);
}
