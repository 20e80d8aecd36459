import type { WalletProvider } from '@xaalis/kernel';

/** Payout fee per provider in basis points of the amount (100 = 1%), from configuration. */
export type PayoutFeeSchedule = Readonly<Record<WalletProvider, number>>;

/**
 * CONTRACT 6: basis points of the amount, rounded half up to whole XOF, charged on top of the
 * amount (amount + fee leave `available`). Integer arithmetic in BigInt: amount × bps may pass
 * 2^53, where floats would round wrongly. Meant for the kernel beside the payments' `splitFee`,
 * which rounds the same way; the payouts scope may not import the payments domain.
 */
export function payoutFee(amount: number, bps: number): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`bad amount ${amount}`);
  if (!Number.isInteger(bps) || bps < 0 || bps > 10_000) throw new RangeError(`bad fee ${bps}`);
  return Number((BigInt(amount) * BigInt(bps) + 5_000n) / 10_000n);
}
