import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Max, Min, ValidateBy } from 'class-validator';
import { IsPhone } from '@xaalis/http';
import {
  CUSTOMER_PROVIDERS,
  MAX_SEND_AMOUNT,
  MIN_SEND_AMOUNT,
  PHONE_PATTERN,
  type CustomerProvider,
} from '@xaalis/kernel';

const isProvider = (value: unknown): value is CustomerProvider =>
  (CUSTOMER_PROVIDERS as readonly unknown[]).includes(value);

/**
 * `to` names the other provider (CONTRACT 8: `from` equal to `to` is a 400). A value that is no
 * provider at all is left to `@IsIn`, so the issue says the one thing wrong with it.
 */
function DiffersFromFrom(): PropertyDecorator {
  return ValidateBy({
    name: 'differsFromFrom',
    validator: {
      validate: (value: unknown, args) =>
        !isProvider(value) || value !== (args?.object as { from?: unknown }).from,
      defaultMessage: () => 'must differ from `from`',
    },
  });
}

/**
 * CONTRACT 8: `POST /v1/public/exchange-quotes`, the terms of an exchange, refused here field by
 * field when malformed; the exchange checks them again (`exchangeTermsIssues`, the same fields).
 * The limits are the exchange's: a whole amount outside `MIN_SEND_AMOUNT`..`MAX_SEND_AMOUNT` is
 * well formed, answered 422 `limit_exceeded` as the per-phone daily limit is, so it passes here.
 */
export class CreateExchangeQuoteDto {
  @ApiProperty({ enum: CUSTOMER_PROVIDERS, description: 'The provider the customer pays with' })
  @IsIn(CUSTOMER_PROVIDERS)
  from!: CustomerProvider;

  @ApiProperty({
    enum: CUSTOMER_PROVIDERS,
    description: 'The provider the phone receives with; not the same as `from`',
  })
  @IsIn(CUSTOMER_PROVIDERS)
  @DiffersFromFrom()
  to!: CustomerProvider;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    example: 10_000,
    description:
      `XOF the customer pays, the fee included. ${MIN_SEND_AMOUNT} to ${MAX_SEND_AMOUNT} per ` +
      'exchange: outside them, 422 `limit_exceeded` with `details: {min, max}`',
  })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  send_amount!: number;

  @ApiProperty({
    pattern: PHONE_PATTERN.source,
    example: '+221771234567',
    description: 'The number that pays and receives',
  })
  @IsString()
  @IsPhone()
  phone!: string;
}
