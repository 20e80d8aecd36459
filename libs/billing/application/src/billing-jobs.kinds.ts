import type { JobChange } from '@xaalis/jobs';

/**
 * The billing clock (CONTRACT 7) is one durable job per subscription (a row of `jobs`, reference
 * the subscription id), due at its next billing instant on the application clock and written by
 * the projection in the transaction that records the facts that moved it.
 */
export const BILLING_JOB_KINDS = {
  tick: 'billing.tick',
} as const;

/** The kinds the billing projection writes, which a rebuild deletes and writes again. */
export const PROJECTED_BILLING_JOB_KINDS: string[] = [BILLING_JOB_KINDS.tick];

export const billingJobs = {
  /** Due at `dueAt`, or (null) nothing more will happen on its own. */
  tick: (subscriptionId: string, dueAt: Date | null): JobChange => ({
    kind: BILLING_JOB_KINDS.tick,
    reference: subscriptionId,
    dueAt,
  }),
};
