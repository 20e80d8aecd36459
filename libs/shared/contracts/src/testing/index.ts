import type { PaymentReply } from '../payments/payments.replies';

/**
 * A payment as `GET /v1/payments/{id}` and the payment events show it: valid against
 * PaymentReply, so a test's event passes the consumers' checks. Overridable field by field.
 */
export function newPaymentObject(overrides: Partial<PaymentReply> = {}): PaymentReply {
  return {
    id: 'pay_01JF0000000000000000000000',
    object: 'payment',
    livemode: false,
    amount: 5_000,
    currency: 'XOF',
    fee: 50,
    net: 4_950,
    amount_refunded: 0,
    status: 'succeeded',
    provider: 'wave',
    client_reference: null,
    description: null,
    customer: { phone: null, name: null },
    checkout_url: 'https://pay.example.sn/checkout/pay_01JF0000000000000000000000?cs=secret',
    next_action: { type: 'redirect', url: 'https://pay.wave.com/c/cos-1' },
    metadata: {},
    failure_reason: null,
    provider_transaction_id: 'T_1',
    expires_at: '2026-11-22T10:30:00.000Z',
    succeeded_at: '2026-11-22T10:01:00.000Z',
    created_at: '2026-11-22T10:00:00.000Z',
    ...overrides,
  };
}
