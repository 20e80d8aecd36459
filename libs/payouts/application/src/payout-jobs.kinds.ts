import type { JobChange } from '@xaalis/jobs';

/**
 * The payouts context's kinds of durable jobs (rows of `jobs`). References: the payout id, or
 * for `payout.claim_hold` `<aw_id>:<po_id>` (neither id holds a colon).
 */
export const PAYOUT_JOB_KINDS = {
  /**
   * Funds held for a payout the wallet may never have accepted (the request died in between):
   * due when a live request would long have claimed them. Written with the hold.
   */
  claimHold: 'payout.claim_hold',
  /** Send a pending payout, or ask the provider about one `processing`, until it ends. */
  send: 'payout.send',
  /** Move the ledger after a payout ended: settle, release or reverse its hold. */
  settle: 'payout.settle',
} as const;

/**
 * The kinds the payouts projection writes, which a rebuild deletes and writes again. Not
 * `claimHold`: it is written with its hold, in the ledger's transaction, and no event rebuilds it.
 */
export const PROJECTED_PAYOUT_JOB_KINDS: string[] = [
  PAYOUT_JOB_KINDS.send,
  PAYOUT_JOB_KINDS.settle,
];

const job =
  (kind: string) =>
  (payoutId: string, dueAt: Date | null): JobChange => ({ kind, reference: payoutId, dueAt });

export const claimHoldReference = (walletId: string, payoutId: string): string =>
  `${walletId}:${payoutId}`;

export function parseClaimHoldReference(
  reference: string,
): { walletId: string; payoutId: string } | undefined {
  const [walletId, payoutId, ...rest] = reference.split(':');
  if (!walletId || !payoutId || rest.length > 0) return undefined;
  return { walletId, payoutId };
}

/** The job changes a payout's facts ask for: due at a time, or (null) no longer wanted. */
export const payoutJobs = {
  claimHold: (walletId: string, payoutId: string, dueAt: Date | null): JobChange => ({
    kind: PAYOUT_JOB_KINDS.claimHold,
    reference: claimHoldReference(walletId, payoutId),
    dueAt,
  }),
  send: job(PAYOUT_JOB_KINDS.send),
  settle: job(PAYOUT_JOB_KINDS.settle),
};
