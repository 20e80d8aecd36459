import type { EventObject } from '../integration-event';
import type { PaymentReply } from '../payments/payments.replies';
import type { IntegrationEventType } from '../shared/integration-event-types';

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

/**
 * A bare record standing for `data.object` in a test of the envelope alone (the bus, the
 * forwarder, the intake): what they carry unread. A consumer that reads the object validates it
 * against its type's class, which such a record would not pass.
 */
export const bareEventObject = (
  object: Record<string, unknown>,
): EventObject<IntegrationEventType> => object as unknown as EventObject<IntegrationEventType>;
