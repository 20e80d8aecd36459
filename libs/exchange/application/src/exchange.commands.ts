import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE } from '@xaalis/config';
import { handleCommand, type EventStore, type HandleCommandOptions } from '@xaalis/event-store';
import {
  EXCHANGE_ACCOUNT_STREAM,
  exchangeAccountDecider,
  exchangeDecider,
  exchangeStream,
  phoneDayDecider,
  quoteDecider,
  quoteStream,
  type ExchangeCommand,
  type ExchangeAccountCommand,
  type PhoneDayCommand,
  type QuoteCommand,
} from '@xaalis/exchange-domain';

/**
 * The exchange context's four kinds of stream, each command through `handleCommand` (read, fold,
 * decide, append with the expected revision, retry on conflict). No command spans two streams:
 * the use cases order their steps so that a crash between two leaves something a retry repairs.
 */
@Injectable()
export class ExchangeCommands {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  quote(quoteId: string, command: QuoteCommand, options?: HandleCommandOptions) {
    return handleCommand(this.store, quoteStream(quoteId), quoteDecider, command, options);
  }

  exchange(exchangeId: string, command: ExchangeCommand, options?: HandleCommandOptions) {
    return handleCommand(this.store, exchangeStream(exchangeId), exchangeDecider, command, options);
  }

  /** `stream` is `phoneDayStream(phone, day)`: the caller picks the day. */
  phoneDay(stream: string, command: PhoneDayCommand) {
    return handleCommand(this.store, stream, phoneDayDecider, command);
  }

  account(command: ExchangeAccountCommand) {
    return handleCommand(this.store, EXCHANGE_ACCOUNT_STREAM, exchangeAccountDecider, command);
  }
}
