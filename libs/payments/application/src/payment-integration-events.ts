import { integrationEventId } from '@xaalis/bus';
import type { IntegrationEvent } from '@xaalis/contracts';
import { foldStreamTo, type EventStore, type RecordedEvent } from '@xaalis/event-store';
import { assertNever, livemode } from '@xaalis/kernel';
import {
  exists,
  toPaymentObject,
  type Payment,
  type PaymentEvent,
  type PaymentLinks,
} from '@xaalis/payments-domain';
import { asPaymentEvent, PAYMENT_FOLD } from './payment-event-guard';

type PaymentEventType =
  'payment.succeeded' | 'payment.failed' | 'payment.expired' | 'payment.refunded';

/** The payment facts merchants hear about (spec 6); the others stay inside payments. */
export function paymentEventType(event: PaymentEvent): PaymentEventType | undefined {
  switch (event.type) {
    case 'PaymentSucceeded':
      return 'payment.succeeded';
    case 'PaymentFailed':
      return 'payment.failed';
    case 'PaymentExpired':
      return 'payment.expired';
    case 'RefundSucceeded':
      return 'payment.refunded';
    case 'PaymentCreated':
    case 'PaymentMethodChosen':
    case 'PaymentSessionFound':
    case 'RefundRequested':
    case 'RefundFailed':
      return undefined;
    default:
      return assertNever(event);
  }
}

/**
 * For the event forwarder: `data.object` is the payment exactly as `GET /v1/payments/{id}`
 * showed it right after this event (the stream folded up to the event's revision), so a
 * republish after a crash carries the same object and the same event id.
 */
export function paymentIntegrationEvents(
  store: EventStore,
  links: (payment: Payment) => PaymentLinks,
) {
  return async (recorded: RecordedEvent): Promise<IntegrationEvent<PaymentEventType>[]> => {
    const event = asPaymentEvent(recorded);
    const type = event && paymentEventType(event);
    if (!type) return [];
    const payment = await foldStreamTo(store, recorded, PAYMENT_FOLD);
    if (!exists(payment)) return [];
    return [
      {
        id: integrationEventId(recorded),
        type,
        merchant_id: payment.merchantId,
        livemode: livemode(payment.mode),
        created_at: recorded.createdAt.toISOString(),
        source: { stream: recorded.streamName, revision: Number(recorded.revision) },
        data: { object: toPaymentObject(payment, links(payment)) },
      },
    ];
  };
}
