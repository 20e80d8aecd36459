import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, CONFIG, type XaalisConfig } from '@xaalis/config';
import type {
  CreateExchangeRequest,
  ExchangeReply,
  PaymentReply,
  PublicExchangeRef,
} from '@xaalis/contracts';
import {
  assertRoomFor,
  exchangeView,
  invalidQuote,
  phoneDayStream,
  redeemRefusal,
  type Exchange,
  type Quote,
} from '@xaalis/exchange-domain';
import { failpoint } from '@xaalis/failpoints';
import { constantTimeEqual, notFound, type Clock } from '@xaalis/kernel';
import { ExchangeAccountService } from './exchange-account.service';
import { ExchangeCommands } from './exchange.commands';
import { assertExchangeEnabled, assertProvidersUp } from './exchange-gate';
import { ExchangeMoney } from './exchange-money';
import { ExchangeQueries } from './exchange.queries';
import { quoteIdOfToken, QuotesService } from './quotes.service';

/**
 * `POST /v1/public/exchanges` and the customer's `GET` (spec 4.5, CONTRACT 8). The quote, the
 * phone's Dakar day and the exchange are three streams, taken in an order where each step can be
 * repeated: the retry of an idempotency key (same exchange, payment and payout ids) carries on
 * where a crash stopped it.
 *
 * 1. The quote is redeemed for this exchange (its single use: of 20 exchanges racing for one
 *    quote, one wins; a wrong code is recorded, and the fifth spends the quote);
 * 2. its amount is reserved on the phone's Dakar day (the limit was checked before step 1, so the
 *    quote is spent by a refusal only when another quote's exchange for that phone took the room
 *    between the two steps);
 * 3. the exchange's stream is created, whose projection schedules `exchange.advance`, which makes
 *    the payment if a crash came before step 4;
 * 4. the customer's payment is made (idempotent by its id), and its checkout answered.
 */
@Injectable()
export class ExchangesService {
  constructor(
    @Inject(CONFIG) private readonly config: XaalisConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly commands: ExchangeCommands,
    private readonly queries: ExchangeQueries,
    private readonly quotes: QuotesService,
    private readonly accounts: ExchangeAccountService,
    private readonly money: ExchangeMoney,
  ) {}

  async create(input: CreateExchangeRequest): Promise<ExchangeReply> {
    assertExchangeEnabled(this.config);
    const { quote, tokenHash } = await this.quoteOfToken(input.quote);
    assertProvidersUp(this.config, quote.from, quote.to);
    if (quote.status === 'open') {
      const today = phoneDayStream(quote.phone, this.clock.now());
      assertRoomFor(await this.queries.phoneDay(today), quote.sendAmount);
    }

    const day = await this.redeem(quote, tokenHash, input);
    await this.commands.phoneDay(phoneDayStream(quote.phone, day), {
      type: 'ReserveAmount',
      data: { exchangeId: input.exchange_id, amount: quote.sendAmount, now: day },
    });
    failpoint('exchange.create.after_reserve');

    const { state: exchange } = await this.commands.exchange(
      input.exchange_id,
      {
        type: 'CreateExchange',
        data: {
          exchangeId: input.exchange_id,
          quoteId: quote.quoteId,
          from: quote.from,
          to: quote.to,
          sendAmount: quote.sendAmount,
          fee: quote.fee,
          receiveAmount: quote.receiveAmount,
          phone: quote.phone,
          paymentId: input.payment_id,
          payoutId: input.payout_id,
          now: day,
        },
      },
      { newStream: true },
    );
    if (exchange === null) throw new Error(`exchange ${input.exchange_id} was not created`);
    failpoint('exchange.create.after_exchange');

    const account = await this.accounts.account();
    return this.view(exchange, await this.money.ensurePayment(exchange, account));
  }

  /** The customer's view; the payment's client secret is the only credential. */
  async publicGet(input: PublicExchangeRef): Promise<ExchangeReply> {
    const exchange = await this.queries.exchange(input.exchange_id);
    if (exchange === null) throw notFound('exchange');
    const account = await this.accounts.account();
    const payment = await this.money.findPayment(exchange.paymentId, account);
    if (payment === null || !constantTimeEqual(clientSecretOf(payment), input.client_secret)) {
      throw notFound('exchange');
    }
    return this.view(exchange, payment);
  }

  /**
   * The token's quote, read before anything else is asked of it; unknown, malformed and forged
   * tokens are one answer, as are expired and used quotes.
   */
  private async quoteOfToken(token: string): Promise<{ quote: Quote; tokenHash: string }> {
    const quoteId = quoteIdOfToken(token);
    const quote = quoteId === null ? null : await this.queries.quote(quoteId);
    const tokenHash = this.quotes.tokenHash(token);
    if (quote === null || !constantTimeEqual(tokenHash, quote.tokenHash)) throw invalidQuote();
    return { quote, tokenHash };
  }

  /**
   * Redeems the quote for this exchange (now, or this exchange's earlier run did): when it was
   * redeemed, which is the exchange's Dakar day however late a retry comes.
   */
  private async redeem(
    quote: Quote,
    tokenHash: string,
    input: CreateExchangeRequest,
  ): Promise<Date> {
    const outcome = await this.commands.quote(quote.quoteId, {
      type: 'RedeemQuote',
      data: {
        tokenHash,
        otp: input.otp,
        exchangeId: input.exchange_id,
        now: this.clock.now(),
      },
    });
    const refusal = redeemRefusal(outcome.events);
    if (refusal) throw refusal;
    if (outcome.state?.redeemedAt == null) throw invalidQuote();
    return new Date(outcome.state.redeemedAt);
  }

  private view(exchange: Exchange, payment: PaymentReply): ExchangeReply {
    return exchangeView(exchange, {
      checkoutUrl: payment.checkout_url,
      cs: clientSecretOf(payment),
    });
  }
}

/** The payment's client secret, as its checkout link carries it (never stored here). */
const clientSecretOf = (payment: PaymentReply): string =>
  new URL(payment.checkout_url).searchParams.get('cs') ?? '';
