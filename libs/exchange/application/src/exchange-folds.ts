import type { StoredFact } from '@xaalis/event-store';
import {
  EXCHANGE_ACCOUNT_EVENT_TYPES,
  EXCHANGE_EVENT_TYPES,
  exchangeAccountDecider,
  exchangeDecider,
  PHONE_DAY_EVENT_TYPES,
  phoneDayDecider,
  QUOTE_EVENT_TYPES,
  quoteDecider,
  type ExchangeAccountEvent,
  type ExchangeEvent,
  type PhoneDayEvent,
  type QuoteEvent,
} from '@xaalis/exchange-domain';

/** A stored event as the decider's event when its type is one of `types`; else undefined. */
const eventOf =
  <Event>(types: readonly string[]) =>
  (stored: StoredFact): Event | undefined =>
    types.includes(stored.type) ? ({ type: stored.type, data: stored.data } as Event) : undefined;

export const asExchangeEvent = eventOf<ExchangeEvent>(EXCHANGE_EVENT_TYPES);

/** How each of the context's streams folds (`aggregateStream`). */
export const EXCHANGE_FOLD = { ...exchangeDecider, asEvent: asExchangeEvent };
export const QUOTE_FOLD = { ...quoteDecider, asEvent: eventOf<QuoteEvent>(QUOTE_EVENT_TYPES) };
export const PHONE_DAY_FOLD = {
  ...phoneDayDecider,
  asEvent: eventOf<PhoneDayEvent>(PHONE_DAY_EVENT_TYPES),
};
export const ACCOUNT_FOLD = {
  ...exchangeAccountDecider,
  asEvent: eventOf<ExchangeAccountEvent>(EXCHANGE_ACCOUNT_EVENT_TYPES),
};
