/** Spec 6: up to 12 attempts, then the delivery is `failed`. */
export const MAX_ATTEMPTS = 12;

/** Spec 6: a receiver has 10 seconds to answer 2xx. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * Wait before the attempt after `attempts` failed ones: base, 2 × base, 4 × base… (spec 6: 10 s,
 * 20 s, 40 s with the default WEBHOOK_RETRY_BASE_MS).
 */
export function retryDelayMs(baseMs: number, attempts: number): number {
  return baseMs * 2 ** Math.max(0, attempts - 1);
}

export type DeliveryState =
  | { status: 'succeeded'; nextAttemptAt: null }
  | { status: 'failed'; nextAttemptAt: null }
  | { status: 'pending'; nextAttemptAt: Date };

/** Where a delivery stands after its `attempts`-th attempt ended with `outcome`. */
export function afterAttempt(input: {
  attempts: number;
  outcome: 'succeeded' | 'failed';
  now: Date;
  retryBaseMs: number;
}): DeliveryState {
  if (input.outcome === 'succeeded') return { status: 'succeeded', nextAttemptAt: null };
  if (input.attempts >= MAX_ATTEMPTS) return { status: 'failed', nextAttemptAt: null };
  return {
    status: 'pending',
    nextAttemptAt: new Date(input.now.getTime() + retryDelayMs(input.retryBaseMs, input.attempts)),
  };
}
