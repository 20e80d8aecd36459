import type { JobChange } from '@xaalis/jobs';

/**
 * The exchange's durable steps (rows of `jobs`, written by the projection in the transaction of
 * the facts that call for them): `exchange.advance` does what an exchange's state asks next
 * (make its payment, pay out, free the phone's day, refund), `exchange.fund_account` funds the
 * service's account once.
 */
export const EXCHANGE_JOB_KINDS = {
  advance: 'exchange.advance',
  fundAccount: 'exchange.fund_account',
} as const;

export const PROJECTED_EXCHANGE_JOB_KINDS: string[] = Object.values(EXCHANGE_JOB_KINDS);

/** Due at `dueAt`, or (null) nothing is left to do. */
export const exchangeJobs = {
  advance: (exchangeId: string, dueAt: Date | null): JobChange => ({
    kind: EXCHANGE_JOB_KINDS.advance,
    reference: exchangeId,
    dueAt,
  }),
  fundAccount: (merchantId: string, dueAt: Date | null): JobChange => ({
    kind: EXCHANGE_JOB_KINDS.fundAccount,
    reference: merchantId,
    dueAt,
  }),
};
