// Token buckets: one per key (after authentication) and one per client address (before it, so
// bad or unknown keys are limited too). State is in this process: with several API processes, each
// enforces its own share (documented in the README).
import { ApiError } from '../../errors/catalogue.js';
import type { ApiContext } from '../route.js';

interface Bucket {
  tokens: number;
  updated: number;
}

/** Buckets kept before full ones are dropped (a full bucket is the same as no bucket). */
const MAX_BUCKETS = 10_000;

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /** advertise: set RateLimit-* headers on allowed requests (the per-key limiter does). */
  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly advertise = true,
  ) {}

  take(ctx: ApiContext, key: string): void {
    const bucket = this.refill(key);
    const resetSeconds = Math.ceil((this.burst - bucket.tokens) / this.perSecond);
    this.refuseIfEmpty(bucket);
    bucket.tokens -= 1;
    if (!this.advertise) return;
    ctx.set('RateLimit-Limit', String(this.burst));
    ctx.set('RateLimit-Remaining', String(Math.floor(bucket.tokens)));
    ctx.set('RateLimit-Reset', String(resetSeconds));
  }

  /** 429 when the key's bucket is empty; takes nothing (for limits charged only on failure). */
  refuseIfSpent(key: string): void {
    this.refuseIfEmpty(this.refill(key));
  }

  /** Takes one token for the key (a failure), never refusing: the next refuseIfSpent does. */
  spend(key: string): void {
    const bucket = this.refill(key);
    bucket.tokens = Math.max(0, bucket.tokens - 1);
  }

  private refill(key: string): Bucket {
    const now = performance.now();
    if (this.buckets.size >= MAX_BUCKETS && !this.buckets.has(key)) this.prune(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updated: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.updated) / 1000) * this.perSecond);
    bucket.updated = now;
    this.buckets.set(key, bucket);
    return bucket;
  }

  private refuseIfEmpty(bucket: Bucket): void {
    if (bucket.tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
      throw new ApiError(
        'rate_limited',
        `Rate limit exceeded; retry in ${retryAfter} s.`,
        { retry_after_seconds: retryAfter },
        {
          'Retry-After': String(retryAfter),
          'RateLimit-Limit': String(this.burst),
          'RateLimit-Remaining': '0',
          'RateLimit-Reset': String(retryAfter),
        },
      );
    }
  }

  private prune(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((now - b.updated) / 1000) * this.perSecond >= this.burst) this.buckets.delete(key);
    }
    // Everyone is mid-burst: forget the oldest rather than grow without bound.
    while (this.buckets.size >= MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value as string);
  }
}
