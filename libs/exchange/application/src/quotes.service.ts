import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, CONFIG, type XaalisConfig } from '@xaalis/config';
import type { CreateExchangeQuoteRequest, ExchangeQuoteReply } from '@xaalis/contracts';
import {
  assertRoomFor,
  assertValidTerms,
  phoneDayStream,
  quoteView,
  type ExchangeTerms,
} from '@xaalis/exchange-domain';
import { hashSecret, newId, randomToken, type Clock } from '@xaalis/kernel';
import { ExchangeCommands } from './exchange.commands';
import { assertExchangeEnabled, assertProvidersUp } from './exchange-gate';
import { ExchangeQueries } from './exchange.queries';

/**
 * The opaque token is the quote's id and a random secret: the id finds the quote's stream, the
 * secret (held only by the client; the stream keeps its keyed hash) proves the token is the one
 * issued.
 */
export const quoteIdOfToken = (token: string): string | null => {
  const cut = token.lastIndexOf('_');
  return cut > 0 ? token.slice(0, cut) : null;
};

/** `POST /v1/public/exchange-quotes` (CONTRACT 8). */
@Injectable()
export class QuotesService {
  private readonly secretKey: string;

  constructor(
    @Inject(CONFIG) private readonly config: XaalisConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly commands: ExchangeCommands,
    private readonly queries: ExchangeQueries,
  ) {
    if (!config.secretHashKey) throw new Error('config.secretHashKey is required by exchanges');
    this.secretKey = config.secretHashKey;
  }

  tokenHash(token: string): string {
    return hashSecret(token, this.secretKey);
  }

  async create(input: CreateExchangeQuoteRequest): Promise<ExchangeQuoteReply> {
    assertExchangeEnabled(this.config);
    const now = this.clock.now();
    const terms: ExchangeTerms = {
      from: input.from,
      to: input.to,
      sendAmount: input.send_amount,
      phone: input.phone,
    };
    assertValidTerms(terms);
    assertProvidersUp(this.config, terms.from, terms.to);
    // Said now rather than after the one-time code; the exchange's reservation is what holds it.
    assertRoomFor(await this.queries.phoneDay(phoneDayStream(terms.phone, now)), terms.sendAmount);

    const quoteId = newId('exchangeQuote');
    const token = `${quoteId}_${randomToken(32)}`;
    const { state } = await this.commands.quote(
      quoteId,
      {
        type: 'IssueQuote',
        data: {
          quoteId,
          tokenHash: this.tokenHash(token),
          ...terms,
          feeBps: this.config.exchangeFeeBps,
          now,
        },
      },
      { newStream: true },
    );
    if (state === null) throw new Error(`quote ${quoteId} was not issued`);
    return quoteView(state, token);
  }
}
