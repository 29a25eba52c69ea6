// Per-key token bucket. State is in this process: with several API processes, each enforces its
// own share (documented in the README).
import { ApiError } from '../../errors/catalogue.js';
import type { ApiContext } from '../route.js';

interface Bucket {
  tokens: number;
  updated: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly perSecond: number, private readonly burst: number) {}

  take(ctx: ApiContext, key: string): void {
    const now = performance.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updated: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.updated) / 1000) * this.perSecond);
    bucket.updated = now;
    this.buckets.set(key, bucket);
    const resetSeconds = Math.ceil((this.burst - bucket.tokens) / this.perSecond);
    if (bucket.tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
      throw new ApiError('rate_limited', `Rate limit exceeded; retry in ${retryAfter} s.`, { retry_after_seconds: retryAfter }, {
        'Retry-After': String(retryAfter),
        'RateLimit-Limit': String(this.burst),
        'RateLimit-Remaining': '0',
        'RateLimit-Reset': String(retryAfter),
      });
    }
    bucket.tokens -= 1;
    ctx.set('RateLimit-Limit', String(this.burst));
    ctx.set('RateLimit-Remaining', String(Math.floor(bucket.tokens)));
    ctx.set('RateLimit-Reset', String(resetSeconds));
  }
}
