import { MAX_SEND_AMOUNT, MIN_SEND_AMOUNT } from '@xaalis/kernel';
import {
  assertValidTerms,
  dakarDay,
  exchangeFee,
  exchangeTermsIssues,
  phoneDayStream,
} from './exchange-bounds';

describe('exchangeFee (basis points of send_amount, rounded half up)', () => {
  it.each<[number, number, number]>([
    [500, 100, 5],
    [1_000, 150, 15],
    [1_050, 100, 11], // 10.5: half goes up
    [1_049, 100, 10], // 10.49
    [1_033, 150, 15], // 15.495
    [1_034, 150, 16], // 15.51
    [MIN_SEND_AMOUNT, 0, 0],
    [MAX_SEND_AMOUNT, 150, 15_000],
    [MAX_SEND_AMOUNT, 10_000, MAX_SEND_AMOUNT],
  ])('%d XOF at %d bps: fee %d', (amount, bps, fee) => {
    expect(exchangeFee(amount, bps)).toBe(fee);
  });

  it.each<[number, number]>([
    [-1, 100],
    [1.5, 100],
    [1_000, -1],
    [1_000, 10_001],
    [1_000, 0.5],
  ])('refuses amount %d at %d bps as a programming error', (amount, bps) => {
    expect(() => exchangeFee(amount, bps)).toThrow(RangeError);
  });
});

describe('exchangeTermsIssues (CONTRACT 8)', () => {
  const terms = { from: 'wave', to: 'orange_money', sendAmount: 10_000, phone: '+221771234567' };

  it('accepts wave to orange_money and back, 500 to 1,000,000', () => {
    expect(exchangeTermsIssues(terms)).toEqual([]);
    expect(exchangeTermsIssues({ ...terms, from: 'orange_money', to: 'wave' })).toEqual([]);
    expect(exchangeTermsIssues({ ...terms, sendAmount: MIN_SEND_AMOUNT })).toEqual([]);
    expect(exchangeTermsIssues({ ...terms, sendAmount: MAX_SEND_AMOUNT })).toEqual([]);
  });

  it('refuses from = to, naming `to`', () => {
    expect(exchangeTermsIssues({ ...terms, to: 'wave' })).toEqual([
      { field: 'to', issue: 'must differ from `from`' },
    ]);
  });

  it.each<[string, Partial<typeof terms>, string[]]>([
    ['mock as from', { from: 'mock' }, ['from']],
    ['an unknown to', { to: 'paypal' }, ['to']],
    ['a fraction', { sendAmount: 1_000.5 }, ['send_amount']],
    ['zero', { sendAmount: 0 }, ['send_amount']],
    ['a landline', { phone: '+221331234567' }, ['phone']],
  ])('refuses %s', (_, change, fields) => {
    expect(exchangeTermsIssues({ ...terms, ...change }).map((issue) => issue.field)).toEqual(
      fields,
    );
  });
});

describe('assertValidTerms: the per-exchange limit is limit_exceeded', () => {
  const terms = { from: 'wave', to: 'orange_money', sendAmount: 10_000, phone: '+221771234567' };

  it.each([MIN_SEND_AMOUNT - 1, MAX_SEND_AMOUNT + 1])('%i XOF is limit_exceeded', (sendAmount) => {
    expect(() => assertValidTerms({ ...terms, sendAmount })).toThrow(
      expect.objectContaining({
        code: 'limit_exceeded',
        details: { min: MIN_SEND_AMOUNT, max: MAX_SEND_AMOUNT },
      }),
    );
  });

  it('a malformed amount is still validation_error', () => {
    expect(() => assertValidTerms({ ...terms, sendAmount: 1.5 })).toThrow(
      expect.objectContaining({ code: 'validation_error' }),
    );
  });

  it.each([MIN_SEND_AMOUNT, MAX_SEND_AMOUNT])('%i XOF passes', (sendAmount) => {
    expect(() => assertValidTerms({ ...terms, sendAmount })).not.toThrow();
  });
});

describe('Dakar day streams', () => {
  it('cuts the day at midnight UTC (Dakar is UTC+0)', () => {
    expect(dakarDay(new Date('2026-11-22T23:59:59.999Z'))).toBe('2026-11-22');
    expect(phoneDayStream('+221771234567', new Date('2026-11-23T00:00:00.000Z'))).toBe(
      'exchange-phone-+221771234567-2026-11-23',
    );
  });
});
