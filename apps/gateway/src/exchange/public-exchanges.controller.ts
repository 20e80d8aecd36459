import { Body, Controller, Get, Inject, Param, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import { BUS_CLIENT } from '@xaalis/config';
import {
  EXCHANGE_CREATE,
  EXCHANGE_PUBLIC_GET,
  EXCHANGE_QUOTE_CREATE,
  ExchangeQuoteReply,
  ExchangeReply,
  request,
  type BusRequester,
} from '@xaalis/contracts';
import { ApiErrors, Idempotent, NewIds, OPENAPI_CLIENT_SECRET, RateLimit } from '@xaalis/http';
import { MAX_SEND_AMOUNT, MIN_SEND_AMOUNT, notFound } from '@xaalis/kernel';
import { ClientSecretQuery } from '../checkout/public-pay.dto';
import { CreateExchangeQuoteDto } from './create-exchange-quote.dto';
import { CreateExchangeDto } from './create-exchange.dto';

/**
 * The public test-mode exchange (CONTRACT 8, spec 4.5): no credentials to quote and to create,
 * the payment's client secret `cs` to follow one. Rate limited per IP. The exchange app decides
 * everything past the form of a request: whether exchanges are on (403 `test_mode_disabled`), a
 * provider is down (503), the quote and the code are right, the amount and the phone's day are
 * within the limits (422).
 */
@ApiTags('exchange')
@Controller('v1/public')
@RateLimit('ip')
export class PublicExchangesController {
  constructor(@Inject(BUS_CLIENT) private readonly bus: BusRequester) {}

  /**
   * No idempotency key: nothing scopes a public caller's keys, so a replay would hand the quote's
   * token to whoever sent the same key and terms. A retry gets a new quote; an unused one expires.
   */
  @ApiOperation({
    summary: 'Exchange: quote a send amount from one provider to the other',
    security: [],
  })
  @ApiErrors('test_mode_disabled', 'limit_exceeded')
  @Post('exchange-quotes')
  @ApiCreatedResponse({
    type: ExchangeQuoteReply,
    description:
      'The quote: fee and amount received, and the single-use `quote` token, valid 10 minutes. ' +
      `422 \`limit_exceeded\`: \`send_amount\` outside ${MIN_SEND_AMOUNT} to ${MAX_SEND_AMOUNT}, ` +
      "or past the phone's daily amount; 403 `test_mode_disabled` when exchanges are off; " +
      '503 `unavailable` when `from` or `to` is down.',
  })
  createQuote(@Body() body: CreateExchangeQuoteDto) {
    return request(this.bus, EXCHANGE_QUOTE_CREATE, {
      from: body.from,
      to: body.to,
      send_amount: body.send_amount,
      phone: body.phone,
    });
  }

  /** The key fixes the exchange's, its payment's and its payout's ids: a retry carries on. */
  @ApiOperation({
    summary: 'Exchange: create an exchange from a quote and its one-time code',
    security: [],
  })
  @ApiErrors('test_mode_disabled', 'invalid_quote', 'invalid_otp', 'limit_exceeded')
  @Post('exchanges')
  @Idempotent({ required: true })
  @ApiCreatedResponse({
    type: ExchangeReply,
    description:
      'The exchange (spec 2.9), `awaiting_payment`: the customer pays `send_amount` at ' +
      '`checkout_url`. 400 `invalid_quote` (unknown, expired or used) or `invalid_otp`; ' +
      "422 `limit_exceeded` past the phone's daily amount; 403 `test_mode_disabled`; " +
      '503 `unavailable` when a provider is down.',
  })
  create(@Body() body: CreateExchangeDto, @NewIds() ids: NewIds) {
    return request(this.bus, EXCHANGE_CREATE, {
      exchange_id: ids.of('exchange'),
      payment_id: ids.of('payment'),
      payout_id: ids.of('payout'),
      quote: body.quote,
      otp: body.otp,
    });
  }

  /** What the customer polls: a wrong `cs`, a missing one and an unknown exchange are one 404. */
  @ApiOperation({ summary: 'Exchange: the exchange as the customer follows it' })
  @ApiSecurity(OPENAPI_CLIENT_SECRET)
  @Get('exchanges/:id')
  @ApiParam({ name: 'id' })
  @ApiOkResponse({
    type: ExchangeReply,
    description: 'The exchange (spec 2.9) and where it stands.',
  })
  get(@Param('id') id: string, @Query() query: ClientSecretQuery) {
    if (!query.cs) throw notFound('exchange');
    return request(this.bus, EXCHANGE_PUBLIC_GET, { exchange_id: id, client_secret: query.cs });
  }
}
