import { dakarDay } from './dakar-day';
import { MAX_WALLET_AMOUNT } from '@xaalis/kernel';
import { payoutFee } from './payout-fee';

describe('payoutFee (CONTRACT 6: basis points, rounded half up to whole XOF)', () => {
  it.each<[number, number, number]>([
    [0, 100, 0],
    [1, 100, 0],
    [49, 100, 0],
    [50, 100, 1],
    [149, 100, 1],
    [150, 100, 2],
    [33, 150, 0],
    [34, 150, 1],
    [10_000, 100, 100],
    [10_000, 150, 150],
    [1, 5_000, 1],
    [1, 4_999, 0],
    [MAX_WALLET_AMOUNT, 150, 1_500_000],
    [MAX_WALLET_AMOUNT, 10_000, MAX_WALLET_AMOUNT],
  ])('%d XOF at %d bps: fee %d', (amount, bps, fee) => {
    expect(payoutFee(amount, bps)).toBe(fee);
  });

  it('is exactly half up against a BigInt reference, every amount 0..20,000 at odd rates', () => {
    const broken: string[] = [];
    for (const bps of [0, 1, 99, 150, 333, 9_999, 10_000]) {
      for (let amount = 0; amount <= 20_000; amount++) {
        const product = BigInt(amount) * BigInt(bps);
        const expected = Number(product / 10_000n + (product % 10_000n >= 5_000n ? 1n : 0n));
        if (payoutFee(amount, bps) !== expected) broken.push(`${amount}@${bps}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('stays exact when amount × bps passes 2^53', () => {
    expect(payoutFee(900_810_015_001, 9_999)).toBe(900_719_933_999);
  });

  it.each([-1, 1.5, Number.NaN])('refuses the amount %d', (amount) => {
    expect(() => payoutFee(amount, 100)).toThrow(RangeError);
  });

  it.each([-1, 10_001, 0.5])('refuses the rate %d bps', (bps) => {
    expect(() => payoutFee(1_000, bps)).toThrow(RangeError);
  });
});

describe('dakarDay (Africa/Dakar: UTC+0, no daylight saving)', () => {
  it.each<[string, string]>([
    ['2026-11-22T00:00:00.000Z', '2026-11-22'],
    ['2026-11-22T23:59:59.999Z', '2026-11-22'],
    ['2026-11-23T00:00:00.000Z', '2026-11-23'],
    // Mid-summer, when Europe shifts its clocks: Dakar does not.
    ['2026-07-01T23:30:00.000Z', '2026-07-01'],
    ['2026-12-31T23:59:59.999Z', '2026-12-31'],
    ['2027-01-01T00:00:00.000Z', '2027-01-01'],
  ])('%s is %s', (instant, day) => {
    expect(dakarDay(new Date(instant))).toBe(day);
  });
});
