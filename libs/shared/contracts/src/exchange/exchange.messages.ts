import { IsInt, IsString, Matches, MaxLength } from 'class-validator';
import { OTP_MAX_LENGTH, QUOTE_TOKEN_MAX_LENGTH } from '@xaalis/kernel';
import { idPattern } from '../shared/formats';

/**
 * The public test-mode exchange's bus messages (CONTRACT 8), asked by the gateway and answered by
 * the exchange app. There is no merchant scope: the exchange is the service's own, in test mode.
 * The terms are checked field by field at the gateway and again by the quote's decider, which
 * names each field as the client sent it.
 */

/** `exchange.quote.create`. */
export class CreateExchangeQuoteRequest {
  @IsString()
  @MaxLength(50)
  from!: string;

  @IsString()
  @MaxLength(50)
  to!: string;

  @IsInt()
  send_amount!: number;

  @IsString()
  @MaxLength(50)
  phone!: string;
}

/**
 * `exchange.exchange.create`. The exchange's, its payment's and its payout's ids are fixed by the
 * idempotency key, so a retry after a crash carries on with what the first run made.
 */
export class CreateExchangeRequest {
  @Matches(idPattern('ex'))
  exchange_id!: string;

  @Matches(idPattern('pay'))
  payment_id!: string;

  @Matches(idPattern('po'))
  payout_id!: string;

  @IsString()
  @MaxLength(QUOTE_TOKEN_MAX_LENGTH)
  quote!: string;

  @IsString()
  @MaxLength(OTP_MAX_LENGTH)
  otp!: string;
}

/** `exchange.exchange.public_get`: the customer follows it with the payment's client secret. */
export class PublicExchangeRef {
  @IsString()
  @MaxLength(255)
  exchange_id!: string;

  @IsString()
  @MaxLength(255)
  client_secret!: string;
}
