import { newPaymentObject } from '@xaalis/contracts/testing';
import { DomainError } from '@xaalis/kernel';
import type { Ledger } from '@xaalis/ledger';
import { LedgerHandler } from './ledger.handler';

const MERCHANT = 'mer_01JF0000000000000000000000';

const paymentSucceeded = (object: object) => ({
  id: 'evt_01JF0000000000000000000000',
  type: 'payment.succeeded',
  merchant_id: MERCHANT,
  livemode: true,
  created_at: '2026-11-22T10:01:00.000Z',
  source: { stream: 'payment-pay_01JF0000000000000000000000', revision: 3 },
  data: { object },
});

function handlerWithLedger() {
  const creditPayment = jest.fn().mockResolvedValue({ posted: true });
  const handler = new LedgerHandler({ creditPayment } as unknown as Ledger);
  return { handler, creditPayment };
}

describe('LedgerHandler.paymentSucceeded', () => {
  it('credits the payment of a valid event, in its mode', async () => {
    const { handler, creditPayment } = handlerWithLedger();

    await handler.paymentSucceeded(
      paymentSucceeded(newPaymentObject({ amount: 10_000, fee: 100 })),
    );

    expect(creditPayment).toHaveBeenCalledWith({
      paymentId: newPaymentObject().id,
      merchantId: MERCHANT,
      mode: 'live',
      amount: 10_000,
      fee: 100,
    });
  });

  it('refuses an object that is not a payment, and credits nothing', async () => {
    const { handler, creditPayment } = handlerWithLedger();

    const refused = handler.paymentSucceeded(
      paymentSucceeded({ ...newPaymentObject(), amount: '10000' }),
    );

    await expect(refused).rejects.toBeInstanceOf(DomainError);
    await expect(refused).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field: 'data.object.amount', issue: 'amount must be an integer number' }],
    });
    expect(creditPayment).not.toHaveBeenCalled();
  });
});
