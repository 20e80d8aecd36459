import type { RecordedEvent } from '@xaalis/event-store';
import {
  PAYMENT_EVENT_TYPES,
  PAYMENT_STREAM_PREFIX,
  type PaymentEvent,
} from '@xaalis/payments-domain';

const TYPES = new Set<string>(PAYMENT_EVENT_TYPES);

/** A recorded event of a payment stream as the decider's event type; undefined for anything else. */
export function asPaymentEvent(recorded: RecordedEvent): PaymentEvent | undefined {
  if (!recorded.streamName.startsWith(PAYMENT_STREAM_PREFIX) || !TYPES.has(recorded.type)) {
    return undefined;
  }
  return { type: recorded.type, data: recorded.data } as PaymentEvent;
}
