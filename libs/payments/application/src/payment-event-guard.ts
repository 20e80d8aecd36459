import type { RecordedEvent, StoredFact } from '@xaalis/event-store';
import {
  evolve,
  initialState,
  PAYMENT_EVENT_TYPES,
  PAYMENT_STREAM_PREFIX,
  type PaymentEvent,
} from '@xaalis/payments-domain';

const TYPES = new Set<string>(PAYMENT_EVENT_TYPES);

/** A stored event of a payment stream as the decider's event type; undefined for another type. */
export function paymentEventOf(stored: StoredFact): PaymentEvent | undefined {
  return TYPES.has(stored.type)
    ? ({ type: stored.type, data: stored.data } as PaymentEvent)
    : undefined;
}

/** A recorded event as the decider's event type; undefined for anything else. */
export function asPaymentEvent(recorded: RecordedEvent): PaymentEvent | undefined {
  return recorded.streamName.startsWith(PAYMENT_STREAM_PREFIX)
    ? paymentEventOf(recorded)
    : undefined;
}

/** How a payment's stream folds, for `aggregateStream` and `foldStreamTo`. */
export const PAYMENT_FOLD = { initialState, evolve, asEvent: paymentEventOf };
