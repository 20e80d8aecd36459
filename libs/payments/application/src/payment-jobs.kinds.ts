import type { JobChange } from '@xaalis/jobs';

/** The payments context's kinds of durable jobs (rows of `jobs`). */
export const PAYMENT_JOB_KINDS = {
  /** At `expires_at`; reference: the payment id. */
  expire: 'payment.expire',
  /** A live payment waiting on its provider; reference: the payment id. */
  reconcile: 'payment.reconcile',
  /** A refund's settlement; reference: `<pay_id>:<re_id>` (neither id holds a colon). */
  refund: 'payment.refund',
} as const;

export const ALL_PAYMENT_JOB_KINDS: string[] = Object.values(PAYMENT_JOB_KINDS);

export const refundJobReference = (paymentId: string, refundId: string) =>
  `${paymentId}:${refundId}`;

export function parseRefundJobReference(
  reference: string,
): { paymentId: string; refundId: string } | undefined {
  const [paymentId, refundId, ...rest] = reference.split(':');
  if (!paymentId || !refundId || rest.length > 0) return undefined;
  return { paymentId, refundId };
}

/** The job changes a payment's facts ask for: due at a time, or (null) no longer wanted. */
export const paymentJobs = {
  expire: (paymentId: string, dueAt: Date | null): JobChange => ({
    kind: PAYMENT_JOB_KINDS.expire,
    reference: paymentId,
    dueAt,
  }),
  reconcile: (paymentId: string, dueAt: Date | null): JobChange => ({
    kind: PAYMENT_JOB_KINDS.reconcile,
    reference: paymentId,
    dueAt,
  }),
  refund: (paymentId: string, refundId: string, dueAt: Date | null): JobChange => ({
    kind: PAYMENT_JOB_KINDS.refund,
    reference: refundJobReference(paymentId, refundId),
    dueAt,
  }),
};
