import { MAX_PAYMENT_AMOUNT } from '@xaalis/kernel';
import { seededRandom } from '@xaalis/kernel/testing';
import { feeFor, splitFee } from './fees';
import { FEES } from './payment.fixtures';

/**
 * The fee worked out another way: exact BigInt quotient and remainder, half up when the remainder
 * is at least half of 10,000. No floats, no shared formula with the code under test.
 */
function referenceFee(amount: number, bps: number): number {
  const product = BigInt(amount) * BigInt(bps);
  const quotient = product / 10_000n;
  const remainder = product % 10_000n;
  return Number(remainder * 2n >= 10_000n ? quotient + 1n : quotient);
}

const RATES = [0, 1, 50, 99, 100, 101, 150, 199, 250, 333, 5_000, 9_999, 10_000];
const EDGES = [0, 1, 2, 49, 50, 51, 99, 100, 101, 149, 150, 151, 999_999, 1_000_000];
const EDGES_HIGH = [MAX_PAYMENT_AMOUNT - 1, MAX_PAYMENT_AMOUNT];

/** Every broken property for these amounts and rates, as readable lines (empty when all hold). */
function brokenFor(amounts: Iterable<number>, rates: readonly number[]): string[] {
  const broken: string[] = [];
  for (const amount of amounts) {
    for (const bps of rates) {
      const { fee, net } = splitFee(amount, bps);
      const expected = referenceFee(amount, bps);
      if (fee + net !== amount) broken.push(`${amount}@${bps}: ${fee} + ${net} != ${amount}`);
      if (fee !== expected) broken.push(`${amount}@${bps}: fee ${fee}, expected ${expected}`);
      if (!Number.isSafeInteger(fee) || !Number.isSafeInteger(net)) {
        broken.push(`${amount}@${bps}: not integers ${fee}/${net}`);
      }
      if (fee < 0 || fee > amount) broken.push(`${amount}@${bps}: fee ${fee} outside 0..amount`);
    }
    if (broken.length > 20) break;
  }
  return broken;
}

function* range(from: number, to: number): Generator<number> {
  for (let amount = from; amount <= to; amount++) yield amount;
}

function* sampled(count: number, max: number, seed: number): Generator<number> {
  const next = seededRandom(seed);
  for (let i = 0; i < count; i++) yield Math.floor(next() * (max + 1));
}

describe('splitFee', () => {
  it.each<[number, number, number]>([
    [0, 150, 0],
    [1, 100, 0],
    [49, 100, 0],
    [50, 100, 1],
    [51, 100, 1],
    [149, 100, 1],
    [150, 100, 2],
    [33, 150, 0],
    [34, 150, 1],
    [100, 150, 2],
    [300, 150, 5],
    [1, 5_000, 1],
    [1, 4_999, 0],
    [1, 10_000, 1],
    [10_000, 150, 150],
    [100_000_000, 0, 0],
    [100_000_000, 100, 1_000_000],
    [100_000_000, 150, 1_500_000],
    [100_000_000, 10_000, 100_000_000],
  ])('%d XOF at %d bps: fee %d, the rest is net', (amount, bps, fee) => {
    expect(splitFee(amount, bps)).toEqual({ fee, net: amount - fee });
  });

  it('fee + net = amount, half up, 0 ≤ fee ≤ amount: every amount 0..20,000 at every rate', () => {
    expect(brokenFor(range(0, 20_000), RATES)).toEqual([]);
  });

  it('the same at the edges and up to the 100,000,000 XOF maximum', () => {
    expect(brokenFor([...EDGES, ...EDGES_HIGH], RATES)).toEqual([]);
    expect(brokenFor(sampled(10_000, MAX_PAYMENT_AMOUNT, 7), RATES)).toEqual([]);
  });

  it('the same for every rate 0..10,000 bps at the edge amounts', () => {
    const everyRate = [...range(0, 10_000)];
    expect(brokenFor([...EDGES, ...EDGES_HIGH], everyRate)).toEqual([]);
  });

  it('stays exact far above the maximum amount, up to 900,719,925,473 XOF at any rate', () => {
    expect(brokenFor(sampled(5_000, 900_719_925_473, 11), RATES)).toEqual([]);
    expect(brokenFor([900_719_925_473], [...range(0, 10_000)])).toEqual([]);
  });

  it('never lowers the fee when the amount or the rate grows', () => {
    const broken: string[] = [];
    for (const bps of RATES) {
      let previous = 0;
      for (const amount of range(0, 5_000)) {
        const { fee } = splitFee(amount, bps);
        if (fee < previous) broken.push(`${amount}@${bps}`);
        previous = fee;
      }
    }
    for (const amount of [1, 50, 10_000, MAX_PAYMENT_AMOUNT]) {
      let previous = 0;
      for (const bps of range(0, 10_000)) {
        const { fee } = splitFee(amount, bps);
        if (fee < previous) broken.push(`${amount}@${bps}`);
        previous = fee;
      }
    }
    expect(broken).toEqual([]);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1])(
    'refuses the amount %d',
    (amount) => {
      expect(() => splitFee(amount, 100)).toThrow(RangeError);
    },
  );

  it.each([-1, 10_001, 1.5, Number.NaN])('refuses the rate %d bps', (bps) => {
    expect(() => splitFee(1_000, bps)).toThrow(RangeError);
  });

  /** 900,810,015,001 × 9,999 passes 2^53: the rounding is exact in BigInt, not in floats. */
  it('rounds half up for an amount whose product passes 2^53', () => {
    expect(splitFee(900_810_015_001, 9_999).fee).toBe(900_719_933_999);
  });
});

describe('feeFor', () => {
  it("takes the provider's rate from the schedule", () => {
    expect(feeFor(FEES, 'wave', 10_000)).toEqual({ fee: 100, net: 9_900 });
    expect(feeFor(FEES, 'orange_money', 10_000)).toEqual({ fee: 150, net: 9_850 });
    expect(feeFor(FEES, 'mock', 10_000)).toEqual({ fee: 200, net: 9_800 });
  });
});
