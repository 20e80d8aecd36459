import {
  orangeLookupStatus,
  orangeOutcome,
  readOrangeTransaction,
  type OrangeTransaction,
} from './orange-money-transaction';

/** A paid merchant payment as Sonatel's production API returned it (amount as a float). */
const PAID_BODY = `{
  "amount": {"value": 10.0, "unit": "XOF"},
  "requestDate": "2026-09-09T10:02:59.379Z",
  "reference": "pay_01JREAL",
  "metadata": {"paymentId": "pay_01JREAL", "idempotencyKey": "e8a43c9b", "notification.dispatched": "true"},
  "receiveNotification": true,
  "partner": {"id": "621513", "idType": "CODE", "walletType": "PRINCIPAL"},
  "customer": {"id": "772490530", "idType": "MSISDN", "walletType": "PRINCIPAL"},
  "type": "MERCHANT_PAYMENT",
  "transactionId": "MP260909.1002.A34169",
  "createdAt": "2026-09-09T10:02:59.379Z",
  "updatedAt": "2026-09-09T10:03:01.210Z",
  "channel": "MAXIT",
  "status": "SUCCESS"
}`;

const tx = (overrides: Partial<OrangeTransaction> = {}): OrangeTransaction => ({
  transactionId: 'MP1',
  paymentId: 'pay_1',
  status: 'SUCCESS',
  type: 'MERCHANT_PAYMENT',
  amount: 1500,
  ...overrides,
});

describe('orangeOutcome', () => {
  it.each([
    ['SUCCESS', 'succeeded'],
    ['success', 'succeeded'],
    ['FAILED', 'failed'],
    ['CANCELLED', 'failed'],
    ['REJECTED', 'failed'],
    ['INITIATED', 'pending'],
    ['PENDING', 'pending'],
    ['ACCEPTED', 'pending'],
    ['PRE_INITIATED', 'pending'],
    ['SOMETHING_NEW', 'pending'],
  ])('%s → %s', (status, outcome) => {
    expect(orangeOutcome(status)).toBe(outcome);
  });
});

describe('readOrangeTransaction', () => {
  it('reads the payload Sonatel sends', () => {
    expect(readOrangeTransaction(JSON.parse(PAID_BODY))).toEqual({
      transactionId: 'MP260909.1002.A34169',
      paymentId: 'pay_01JREAL',
      status: 'SUCCESS',
      type: 'MERCHANT_PAYMENT',
      amount: 10,
    });
  });

  it('falls back to metadata.paymentId when there is no reference', () => {
    expect(
      readOrangeTransaction({ status: 'SUCCESS', metadata: { paymentId: 'pay_2' } })?.paymentId,
    ).toBe('pay_2');
  });

  it('reads a string amount; a fractional one is no XOF amount', () => {
    expect(readOrangeTransaction({ status: 'SUCCESS', amount: { value: '2500' } })?.amount).toBe(
      2500,
    );
    expect(
      readOrangeTransaction({ status: 'SUCCESS', amount: { value: 10.5 } })?.amount,
    ).toBeNull();
  });

  it('has no transaction without a status', () => {
    expect(readOrangeTransaction({ reference: 'pay_1' })).toBeNull();
    expect(readOrangeTransaction('SUCCESS')).toBeNull();
  });
});

describe('orangeLookupStatus', () => {
  const known = { paymentId: 'pay_1', providerReference: 'qr-1' };
  const unknownStart = { paymentId: 'pay_1', providerReference: null };

  it('a success wins over failed attempts on the same QR code', () => {
    expect(
      orangeLookupStatus(known, [tx({ status: 'FAILED', transactionId: 'MP0' }), tx()]),
    ).toEqual({
      status: 'succeeded',
      providerReference: 'qr-1',
      transactionId: 'MP1',
      amount: 1500,
    });
  });

  it('a success found by payment id alone takes the transaction id as reference', () => {
    expect(orangeLookupStatus(unknownStart, [tx()])).toMatchObject({
      status: 'succeeded',
      providerReference: 'MP1',
    });
  });

  it('an attempt on its way is pending', () => {
    expect(
      orangeLookupStatus(known, [tx({ status: 'FAILED' }), tx({ status: 'INITIATED' })]),
    ).toEqual({
      status: 'pending',
      providerReference: 'qr-1',
      redirectUrl: null,
    });
  });

  it('only final failures: failed, with the status as reason', () => {
    expect(orangeLookupStatus(known, [tx({ status: 'CANCELLED' })])).toEqual({
      status: 'failed',
      providerReference: 'qr-1',
      reason: 'cancelled',
    });
  });

  it('nothing paid yet: pending when the QR code exists, not found otherwise', () => {
    expect(orangeLookupStatus(known, [])).toEqual({
      status: 'pending',
      providerReference: 'qr-1',
      redirectUrl: null,
    });
    expect(orangeLookupStatus(unknownStart, [])).toEqual({ status: 'not_found' });
  });

  it('ignores other payments and other transaction types', () => {
    expect(
      orangeLookupStatus(unknownStart, [tx({ paymentId: 'pay_2' }), tx({ type: 'CASHIN' })]),
    ).toEqual({ status: 'not_found' });
  });
});
