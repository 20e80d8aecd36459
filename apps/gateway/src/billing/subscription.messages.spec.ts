import type { CancelSubscriptionDto } from './cancel-subscription.dto';
import type { CreateSubscriptionDto } from './create-subscription.dto';
import {
  cancelSubscriptionMessage,
  createSubscriptionMessage,
  testAdvanceMessage,
} from './subscription.messages';

const SCOPE = { merchantId: 'mer_01JD8ZP5V6W7X8Y9Z0A1B2C3D4', mode: 'test' as const };
const SUB = 'sub_01JD8ZP5V6W7X8Y9Z0A1B2C3D4';

describe('createSubscriptionMessage', () => {
  it('applies the defaults of spec 4.2 to every field the client left out', () => {
    const body = {
      customer: { phone: '+221771234567', name: 'Awa Diop' },
      amount: 15_000,
      interval: 'month',
    } as CreateSubscriptionDto;
    expect(createSubscriptionMessage(SCOPE, SUB, 'Boutique Awa', body)).toEqual({
      merchant_id: SCOPE.merchantId,
      mode: 'test',
      subscription_id: SUB,
      merchant_name: 'Boutique Awa',
      customer: { phone: '+221771234567', name: 'Awa Diop', email: null },
      amount: 15_000,
      interval: 'month',
      interval_count: 1,
      billing_cycles: null,
      days_until_due: 3,
      cancel_after_days: 14,
      description: null,
      client_reference: null,
      metadata: {},
    });
  });

  it('keeps every field the client sent, and never the currency (XOF is the only one)', () => {
    const body = {
      customer: { phone: '+221771234567', name: 'Awa Diop', email: 'awa@example.sn' },
      amount: 100,
      currency: 'XOF',
      interval: 'week',
      interval_count: 2,
      billing_cycles: 6,
      days_until_due: 1,
      cancel_after_days: 60,
      description: 'Cours de wolof',
      client_reference: 'eleve-7',
      metadata: { level: 'A1' },
    } as CreateSubscriptionDto;
    const message = createSubscriptionMessage(SCOPE, SUB, 'École Jàng', body);
    expect(message).toMatchObject({
      customer: { email: 'awa@example.sn' },
      amount: 100,
      interval: 'week',
      interval_count: 2,
      billing_cycles: 6,
      days_until_due: 1,
      cancel_after_days: 60,
      description: 'Cours de wolof',
      client_reference: 'eleve-7',
      metadata: { level: 'A1' },
    });
    expect(message).not.toHaveProperty('currency');
  });
});

describe('cancelSubscriptionMessage', () => {
  it('cancels now unless at_period_end is true', () => {
    const cancel = (body: CancelSubscriptionDto) =>
      cancelSubscriptionMessage(SCOPE, SUB, body).at_period_end;
    expect(cancel({})).toBe(false);
    expect(cancel({ at_period_end: false })).toBe(false);
    expect(cancel({ at_period_end: true })).toBe(true);
  });
});

describe('testAdvanceMessage', () => {
  it('carries the idempotency key that names the advance', () => {
    expect(testAdvanceMessage(SCOPE, SUB, 'advance-1')).toEqual({
      merchant_id: SCOPE.merchantId,
      mode: 'test',
      subscription_id: SUB,
      idempotency_key: 'advance-1',
    });
  });
});
