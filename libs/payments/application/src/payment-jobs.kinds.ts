/** The kinds of `payment_jobs` rows (one per payment and kind). */
export const jobKinds = {
  expire: 'expire',
  reconcile: 'reconcile',
  refund: (refundId: string) => `refund:${refundId}`,
} as const;

export type JobKind =
  | { kind: 'expire' }
  | { kind: 'reconcile' }
  | { kind: 'refund'; refundId: string };

export function parseJobKind(kind: string): JobKind | undefined {
  if (kind === jobKinds.expire) return { kind: 'expire' };
  if (kind === jobKinds.reconcile) return { kind: 'reconcile' };
  if (kind.startsWith('refund:')) return { kind: 'refund', refundId: kind.slice('refund:'.length) };
  return undefined;
}
