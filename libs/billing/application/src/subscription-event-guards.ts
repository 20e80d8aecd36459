import type { RecordedEvent, StoredFact } from '@xaalis/event-store';
import {
  evolve,
  initialState,
  SUBSCRIPTION_EVENT_TYPES,
  SUBSCRIPTION_STREAM_PREFIX,
  type SubscriptionEvent,
} from '@xaalis/billing-domain';

const TYPES = new Set<string>(SUBSCRIPTION_EVENT_TYPES);

/** A stored event of a subscription stream as the decider's event type; undefined for another. */
export const subscriptionEventOf = (stored: StoredFact): SubscriptionEvent | undefined =>
  TYPES.has(stored.type)
    ? ({ type: stored.type, data: stored.data } as SubscriptionEvent)
    : undefined;

export const asSubscriptionEvent = (recorded: RecordedEvent): SubscriptionEvent | undefined =>
  recorded.streamName.startsWith(SUBSCRIPTION_STREAM_PREFIX)
    ? subscriptionEventOf(recorded)
    : undefined;

/** How a subscription's stream folds, for `foldStream` and `foldStreamTo`. */
export const SUBSCRIPTION_FOLD = { initialState, evolve, asEvent: subscriptionEventOf };
