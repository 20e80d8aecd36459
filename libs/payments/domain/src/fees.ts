import type { PaymentProvider } from './payment.events';

/** Fee per provider in basis points of the amount (100 = 1%), from configuration. */
export type FeeSchedule = Readonly<Record<PaymentProvider, number>>;

export interface FeeSplit {
  fee: number;
  net: number;
}

/**
 * `fee + net = amount`, both whole XOF: the fee is rounded half up in integer arithmetic (no
 * floats near money) and never exceeds the amount.
 */
export function splitFee(amount: number, bps: number): FeeSplit {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`bad amount ${amount}`);
  if (!Number.isInteger(bps) || bps < 0 || bps > 10_000) throw new RangeError(`bad fee ${bps}`);
  // BigInt: amount × bps may pass 2^53, where float arithmetic would round the fee wrongly.
  const fee = Math.min(amount, Number((BigInt(amount) * BigInt(bps) + 5_000n) / 10_000n));
  return { fee, net: amount - fee };
}

export const feeFor = (schedule: FeeSchedule, provider: PaymentProvider, amount: number) =>
  splitFee(amount, schedule[provider]);
