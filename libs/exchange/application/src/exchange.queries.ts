import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE } from '@xaalis/config';
import type { EventStore } from '@xaalis/event-store';
import {
  EXCHANGE_ACCOUNT_STREAM,
  exchangeStream,
  quoteStream,
  type Exchange,
  type ExchangeAccount,
  type PhoneDayState,
  type Quote,
} from '@xaalis/exchange-domain';
import { idPattern } from '@xaalis/contracts';
import { ACCOUNT_FOLD, EXCHANGE_FOLD, PHONE_DAY_FOLD, QUOTE_FOLD } from './exchange-folds';

const EXCHANGE_ID = idPattern('ex');
const QUOTE_ID = idPattern('exq');

/** Reads fold the stream itself: an exchange is never read from a model that may lag. */
@Injectable()
export class ExchangeQueries {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async exchange(exchangeId: string): Promise<Exchange | null> {
    if (!EXCHANGE_ID.test(exchangeId)) return null;
    return (await this.store.aggregateStream(exchangeStream(exchangeId), EXCHANGE_FOLD)).state;
  }

  async quote(quoteId: string): Promise<Quote | null> {
    if (!QUOTE_ID.test(quoteId)) return null;
    return (await this.store.aggregateStream(quoteStream(quoteId), QUOTE_FOLD)).state;
  }

  async phoneDay(stream: string): Promise<PhoneDayState> {
    return (await this.store.aggregateStream(stream, PHONE_DAY_FOLD)).state;
  }

  async account(): Promise<ExchangeAccount | null> {
    return (await this.store.aggregateStream(EXCHANGE_ACCOUNT_STREAM, ACCOUNT_FOLD)).state;
  }
}
