import { DomainError } from '@xaalis/kernel';
import { AccountObject } from './identity/account.object';
import { validateIntegrationEvent } from './integration-event';
import { PaymentReply } from './payments/payments.replies';
import { newPaymentObject } from './testing';

const MERCHANT = 'mer_01JF0000000000000000000000';

const paymentSucceeded = (object: object = newPaymentObject()) => ({
  id: 'evt_01JF0000000000000000000000',
  type: 'payment.succeeded',
  merchant_id: MERCHANT,
  livemode: false,
  created_at: '2026-11-22T10:01:00.000Z',
  source: { stream: 'payment-pay_01JF0000000000000000000000', revision: 3 },
  data: { object },
});

const accountUpdated = (webhookUrl: unknown) => ({
  ...paymentSucceeded(),
  type: 'account.updated',
  data: { object: { object: 'account', id: MERCHANT, livemode: false, webhook_url: webhookUrl } },
});

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('validation_error');
    return error as DomainError;
  }
  throw new Error('expected a validation_error');
}

describe('validateIntegrationEvent', () => {
  it('gives a payment event its object as a PaymentReply, typed', () => {
    const event = validateIntegrationEvent(paymentSucceeded(), 'payment.succeeded');

    expect(event.data.object).toBeInstanceOf(PaymentReply);
    const amount: number = event.data.object.amount;
    expect(amount).toBe(5_000);
    expect(event.data.object).toEqual(newPaymentObject());
  });

  it('refuses a malformed payment.succeeded object, naming each field from the event root', () => {
    const { fee: _fee, ...withoutFee } = newPaymentObject();
    const malformed = { ...withoutFee, amount: '5000', status: 'paid', currency: 'EUR' };

    const error = refusal(() => validateIntegrationEvent(paymentSucceeded(malformed)));

    expect(error.message).toBe(
      'payment.succeeded evt_01JF0000000000000000000000: data.object is not a valid PaymentReply.',
    );
    expect(error.details).toEqual([
      { field: 'data.object.amount', issue: 'amount must be an integer number' },
      { field: 'data.object.currency', issue: expect.stringContaining('currency must be one of') },
      { field: 'data.object.fee', issue: 'fee must be an integer number' },
      { field: 'data.object.status', issue: expect.stringContaining('status must be one of') },
    ]);
  });

  it('refuses an object that is not an object, and an event of a type the consumer does not take', () => {
    expect(refusal(() => validateIntegrationEvent(paymentSucceeded([]))).details).toEqual([
      { field: 'data.object', issue: 'object must be an object' },
    ]);
    const failed = { ...paymentSucceeded(), type: 'payment.failed' };
    expect(refusal(() => validateIntegrationEvent(failed, 'payment.succeeded')).details).toEqual([
      { field: 'type', issue: 'must be one of: payment.succeeded' },
    ]);
  });

  it('strips what the object class does not know, as every message check does', () => {
    const grown = { ...newPaymentObject(), added_later: 1 };

    const event = validateIntegrationEvent(paymentSucceeded(grown), 'payment.succeeded');

    expect(event.data.object).not.toHaveProperty('added_later');
  });

  it('narrows data.object by type: account.updated carries the account', () => {
    const event = validateIntegrationEvent(accountUpdated(null));

    if (event.type !== 'account.updated') throw new Error('expected account.updated');
    expect(event.data.object).toBeInstanceOf(AccountObject);
    const url: string | null = event.data.object.webhook_url;
    expect(url).toBeNull();
    expect(refusal(() => validateIntegrationEvent(accountUpdated(5))).details).toEqual([
      {
        field: 'data.object.webhook_url',
        issue: 'webhook_url must be shorter than or equal to 2048 characters',
      },
      { field: 'data.object.webhook_url', issue: 'webhook_url must be a string' },
    ]);
  });

  it('checks invoice events against the invoice: a wrong object is refused, naming the field', () => {
    const invoice = {
      id: 'in_01JF00000000000000000000000000',
      object: 'invoice',
      livemode: false,
      subscription: 'sub_01JF0000000000000000000000',
      period_index: 0,
      period_start: '2026-11-01T10:00:00.000Z',
      period_end: '2026-12-01T10:00:00.000Z',
      amount: 5000,
      currency: 'XOF',
      status: 'paid',
      payment: 'pay_01JF0000000000000000000000',
      hosted_invoice_url: 'http://localhost:3000/invoices/in_01JF00000000000000000000000000/pay',
      due_at: '2026-11-04T10:00:00.000Z',
      grace_ends_at: '2026-11-18T10:00:00.000Z',
      paid_at: '2026-11-02T10:00:00.000Z',
      reminders_sent: 0,
      created_at: '2026-11-01T10:00:00.000Z',
    };
    const paid = { ...paymentSucceeded(invoice), type: 'invoice.paid' };

    expect(validateIntegrationEvent(paid).data.object).toEqual(invoice);
    expect(
      refusal(() =>
        validateIntegrationEvent({ ...paid, data: { object: { ...invoice, status: 'late' } } }),
      ).details,
    ).toEqual([
      {
        field: 'data.object.status',
        issue: 'status must be one of the following values: open, paid, void, uncollectible',
      },
    ]);
  });
});
