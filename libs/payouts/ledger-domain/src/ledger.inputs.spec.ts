import { DomainError } from '@xaalis/kernel';
import {
  payoutHold,
  refundHold,
  validCreditPayment,
  validHold,
  validReleaseHold,
  validReverseHold,
  validSettleHold,
  type CreditPayment,
  type Hold,
  type SettleHold,
} from './ledger.inputs';

const payment: CreditPayment = {
  paymentId: 'pay_01',
  merchantId: 'mer_01',
  mode: 'test',
  amount: 1_000,
  fee: 25,
};
const hold: Hold = { ref: 'refund:re_01', merchantId: 'mer_01', mode: 'live', amount: 500 };

/** The validation error's field issues, or a failure when `run` does not throw one. */
function issuesOf(run: () => unknown): Array<{ field: string; issue: string }> {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('validation_error');
    return (error as DomainError).details as Array<{ field: string; issue: string }>;
  }
  throw new Error('expected a validation_error');
}

const fields = (run: () => unknown) => issuesOf(run).map((issue) => issue.field);

describe('ledger inputs', () => {
  it('accepts a payment credit and keeps only its fields', () => {
    const extra = { ...payment, note: 'ignored' } as CreditPayment;
    expect(validCreditPayment(extra)).toEqual(payment);
  });

  it.each([
    ['amount', { amount: 0 }],
    ['amount', { amount: -5 }],
    ['amount', { amount: 1.5 }],
    ['amount', { amount: Number.MAX_SAFE_INTEGER + 1 }],
    ['amount', { amount: '1000' }],
    ['fee', { fee: -1 }],
    ['fee', { fee: 0.5 }],
    ['fee', { fee: 1_001 }],
    ['paymentId', { paymentId: '' }],
    ['paymentId', { paymentId: 'pay:1' }],
    ['paymentId', { paymentId: 'pay 1' }],
    ['merchantId', { merchantId: undefined }],
    ['mode', { mode: 'prod' }],
  ])('refuses a payment credit with a bad %s (%j)', (field, change) => {
    expect(
      fields(() => validCreditPayment({ ...payment, ...change } as unknown as CreditPayment)),
    ).toEqual([field]);
  });

  it('reports every bad field at once', () => {
    const bad = { paymentId: 1, merchantId: '', mode: 'x', amount: 0, fee: -1 };
    expect(fields(() => validCreditPayment(bad as unknown as CreditPayment))).toEqual([
      'paymentId',
      'merchantId',
      'mode',
      'amount',
      'fee',
    ]);
  });

  it('a fee equal to the amount is allowed', () => {
    expect(validCreditPayment({ ...payment, fee: 1_000 }).fee).toBe(1_000);
  });

  it('a hold takes no fee unless given one', () => {
    expect(validHold(hold)).toEqual({ ...hold, fee: 0 });
    expect(validHold({ ...hold, ref: 'payout:po_1', fee: 100 }).fee).toBe(100);
  });

  it.each([
    ['ref', { ref: 'payment:pay_1' }],
    ['ref', { ref: 'refund:' }],
    ['ref', { ref: 'refund:re_1:settled' }],
    ['amount', { amount: 0 }],
    ['fee', { fee: -3 }],
    ['amount', { amount: Number.MAX_SAFE_INTEGER, fee: 1 }],
    ['mode', { mode: undefined }],
  ])('refuses a hold with a bad %s (%j)', (field, change) => {
    expect(fields(() => validHold({ ...hold, ...change } as unknown as Hold))).toEqual([field]);
  });

  it('hold refs are built from refund and payout ids', () => {
    expect(refundHold('re_9')).toBe('refund:re_9');
    expect(payoutHold('po_9')).toBe('payout:po_9');
  });

  it('settles only to customer_refunds or payouts_sent', () => {
    expect(validSettleHold({ ref: 'refund:re_1', to: 'customer_refunds' })).toEqual({
      ref: 'refund:re_1',
      to: 'customer_refunds',
    });
    expect(
      fields(() =>
        validSettleHold({ ref: 'refund:re_1', to: 'merchant_available' } as unknown as SettleHold),
      ),
    ).toEqual(['to']);
  });

  it('releases only a hold ref', () => {
    expect(validReleaseHold({ ref: 'payout:po_1' })).toEqual({ ref: 'payout:po_1' });
    expect(fields(() => validReleaseHold({ ref: 'po_1' as never }))).toEqual(['ref']);
  });

  it('reverses only a hold ref', () => {
    expect(validReverseHold({ ref: 'payout:po_1' })).toEqual({ ref: 'payout:po_1' });
    expect(fields(() => validReverseHold({ ref: 'payout:po_1:settled' as never }))).toEqual([
      'ref',
    ]);
  });
});
