import type { Pool } from 'pg';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from 'rate-limiter-flexible';

export interface TokenBucketLimits {
  /** The sustained request rate. */
  perSecond: number;
  /** How many requests may arrive at once after a quiet period. */
  burst: number;
}

export type RateLimitDecision =
  { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

/** The Postgres table the replicas share (migration 20261127000200_rate_limits). */
export const RATE_LIMIT_TABLE = 'http_rate_limits';

/**
 * rate-limiter-flexible counts points in fixed windows, not tokens. The bucket maps onto a window of
 * `burst` points lasting `burst / perSecond` seconds: the same largest burst and the same long-run
 * rate, but a spent window comes back whole when it ends rather than a token at a time.
 */
function windowOf(limits: TokenBucketLimits): { points: number; duration: number } {
  if (!(limits.perSecond > 0) || !(limits.burst >= 1)) {
    throw new Error('A rate limit needs perSecond > 0 and burst >= 1');
  }
  return { points: limits.burst, duration: limits.burst / limits.perSecond };
}

/** One process's limiter: the embedded mode, and the insurance of the shared one. */
export function memoryRateLimiter(limits: TokenBucketLimits, keyPrefix: string): RateLimiterMemory {
  return new RateLimiterMemory({ ...windowOf(limits), keyPrefix });
}

/**
 * A limiter every replica on the pool shares: one upsert per request. A key that has spent its
 * window is refused from memory until the window ends (`inMemoryBlockOnConsumed`), so a flooding
 * client costs no round trips; while Postgres fails, each replica falls back to its own memory.
 */
export function postgresRateLimiter(
  limits: TokenBucketLimits,
  keyPrefix: string,
  pool: Pool,
): RateLimiterPostgres {
  const window = windowOf(limits);
  return new RateLimiterPostgres({
    ...window,
    keyPrefix,
    storeClient: pool,
    storeType: 'pool',
    tableName: RATE_LIMIT_TABLE,
    tableCreated: true,
    inMemoryBlockOnConsumed: window.points,
    insuranceLimiter: memoryRateLimiter(limits, keyPrefix),
  });
}

/** Charges one request to `key`; a refusal carries whole seconds until the window ends. */
export async function take(
  limiter: RateLimiterAbstract,
  key: string,
  cost = 1,
): Promise<RateLimitDecision> {
  try {
    const res = await limiter.consume(key, cost);
    return { allowed: true, remaining: res.remainingPoints };
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) };
  }
}
