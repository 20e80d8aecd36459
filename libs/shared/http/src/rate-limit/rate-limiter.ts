import { type Clock, systemClock } from '@xaalis/kernel';

export interface TokenBucketLimits {
  /** Tokens added per second: the sustained request rate. */
  perSecond: number;
  /** Bucket size: how many requests may arrive at once after a quiet period. */
  burst: number;
}

export type RateLimitDecision =
  { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updatedAtMs: number;
}

/**
 * Token buckets in memory, one per key. Each gateway replica limits on its own, so the effective
 * limit is the configured one times the replicas; that is enough to stop one client flooding and
 * needs no shared store. The map is bounded: the least recently used bucket goes first, and a
 * forgotten bucket is simply a full one.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limits: TokenBucketLimits,
    private readonly clock: Clock = systemClock,
    private readonly maxKeys = 100_000,
  ) {
    if (!(limits.perSecond > 0) || !(limits.burst >= 1)) {
      throw new Error('A rate limit needs perSecond > 0 and burst >= 1');
    }
  }

  take(key: string, cost = 1): RateLimitDecision {
    const now = this.clock.now().getTime();
    const tokens = this.tokensAt(this.buckets.get(key), now);
    const allowed = tokens >= cost;
    const left = allowed ? tokens - cost : tokens;
    // Re-inserted so that Map order is least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, { tokens: left, updatedAtMs: now });
    this.evictBeyondCapacity();
    if (allowed) return { allowed: true, remaining: Math.floor(left) };
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((cost - left) / this.limits.perSecond)),
    };
  }

  get size(): number {
    return this.buckets.size;
  }

  private tokensAt(bucket: Bucket | undefined, now: number): number {
    if (!bucket) return this.limits.burst;
    // A clock that steps back refills nothing rather than draining the bucket.
    const elapsedSeconds = Math.max(0, now - bucket.updatedAtMs) / 1000;
    return Math.min(this.limits.burst, bucket.tokens + elapsedSeconds * this.limits.perSecond);
  }

  private evictBeyondCapacity(): void {
    while (this.buckets.size > this.maxKeys) {
      const oldest = this.buckets.keys().next().value;
      if (oldest === undefined) return;
      this.buckets.delete(oldest);
    }
  }
}
