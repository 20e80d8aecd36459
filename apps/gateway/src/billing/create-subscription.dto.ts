import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsMetadata, IsPhone } from '@xaalis/http';
import {
  BILLING_INTERVALS,
  CLIENT_REFERENCE_MAX_LENGTH,
  CURRENCIES,
  DEFAULT_CANCEL_AFTER_DAYS,
  DEFAULT_DAYS_UNTIL_DUE,
  DEFAULT_INTERVAL_COUNT,
  EMAIL_MAX_LENGTH,
  MAX_BILLING_CYCLES,
  MAX_CANCEL_AFTER_DAYS,
  MAX_DAYS_UNTIL_DUE,
  MAX_INTERVAL_COUNT,
  MAX_SUBSCRIPTION_AMOUNT,
  MIN_BILLING_CYCLES,
  MIN_CANCEL_AFTER_DAYS,
  MIN_DAYS_UNTIL_DUE,
  MIN_INTERVAL_COUNT,
  MIN_SUBSCRIPTION_AMOUNT,
  PAYMENT_DESCRIPTION_MAX_LENGTH,
  PHONE_PATTERN,
  SUBSCRIPTION_CUSTOMER_NAME_MAX_LENGTH,
  SUBSCRIPTION_CUSTOMER_NAME_MIN_LENGTH,
  type BillingInterval,
  type Currency,
} from '@xaalis/kernel';
import { CodePointLength } from '../common/code-point-length';

/**
 * A field that may be left out, its default then applied by the message builder, but not sent as
 * null: `@IsOptional` would let null through, which means nothing for these (only
 * `billing_cycles`, `email`, `description` and `client_reference` have a null).
 */
const UnlessAbsent = () => ValidateIf((_, value: unknown) => value !== undefined);

const CHARACTERS = 'Counted in characters (code points)';

export class SubscriptionCustomerDto {
  @ApiProperty({ pattern: PHONE_PATTERN.source, example: '+221771234567' })
  @IsString()
  @IsPhone()
  phone!: string;

  @ApiProperty({
    minLength: SUBSCRIPTION_CUSTOMER_NAME_MIN_LENGTH,
    maxLength: SUBSCRIPTION_CUSTOMER_NAME_MAX_LENGTH,
    example: 'Awa Diop',
    description: CHARACTERS,
  })
  @IsString()
  @CodePointLength(SUBSCRIPTION_CUSTOMER_NAME_MIN_LENGTH, SUBSCRIPTION_CUSTOMER_NAME_MAX_LENGTH)
  name!: string;

  @ApiPropertyOptional({
    type: 'string',
    format: 'email',
    nullable: true,
    maxLength: EMAIL_MAX_LENGTH,
    example: 'awa@example.sn',
  })
  @IsOptional()
  @IsString()
  @MaxLength(EMAIL_MAX_LENGTH)
  @IsEmail()
  email?: string | null;
}

/**
 * Spec 4.2 and 8: every field, bound and default of
 * `POST /dashboard/v1/merchants/{merchantId}/{mode}/subscriptions`. The defaults are documented
 * here and applied by `createSubscriptionMessage`, where the bus message requires every field.
 * Text bounds are counted in code points, as the customer name of agent wallets is; the bus
 * message leaves room for that (twice the bound in UTF-16 units).
 */
export class CreateSubscriptionDto {
  @ApiProperty({ type: SubscriptionCustomerDto })
  @IsObject()
  @ValidateNested()
  @Type(() => SubscriptionCustomerDto)
  customer!: SubscriptionCustomerDto;

  @ApiProperty({
    type: 'integer',
    minimum: MIN_SUBSCRIPTION_AMOUNT,
    maximum: MAX_SUBSCRIPTION_AMOUNT,
    example: 15_000,
    description: 'XOF per period',
  })
  @IsInt()
  @Min(MIN_SUBSCRIPTION_AMOUNT)
  @Max(MAX_SUBSCRIPTION_AMOUNT)
  amount!: number;

  // No `default` in the schemas below: generated clients would make the fields required.
  @ApiPropertyOptional({ enum: CURRENCIES, description: 'The only currency, and the default' })
  @UnlessAbsent()
  @IsIn(CURRENCIES)
  currency?: Currency;

  @ApiProperty({ enum: BILLING_INTERVALS })
  @IsIn(BILLING_INTERVALS)
  interval!: BillingInterval;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_INTERVAL_COUNT,
    maximum: MAX_INTERVAL_COUNT,
    description: `Intervals per period; ${DEFAULT_INTERVAL_COUNT} when absent`,
  })
  @UnlessAbsent()
  @IsInt()
  @Min(MIN_INTERVAL_COUNT)
  @Max(MAX_INTERVAL_COUNT)
  interval_count?: number;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: MIN_BILLING_CYCLES,
    maximum: MAX_BILLING_CYCLES,
    description: 'Periods to bill; null or absent: no fixed number',
  })
  @IsOptional()
  @IsInt()
  @Min(MIN_BILLING_CYCLES)
  @Max(MAX_BILLING_CYCLES)
  billing_cycles?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_DAYS_UNTIL_DUE,
    maximum: MAX_DAYS_UNTIL_DUE,
    description: `Days from an invoice's creation to its due date; ${DEFAULT_DAYS_UNTIL_DUE} when absent`,
  })
  @UnlessAbsent()
  @IsInt()
  @Min(MIN_DAYS_UNTIL_DUE)
  @Max(MAX_DAYS_UNTIL_DUE)
  days_until_due?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: MIN_CANCEL_AFTER_DAYS,
    maximum: MAX_CANCEL_AFTER_DAYS,
    description: `Days of grace after the due date before the subscription is canceled; ${DEFAULT_CANCEL_AFTER_DAYS} when absent`,
  })
  @UnlessAbsent()
  @IsInt()
  @Min(MIN_CANCEL_AFTER_DAYS)
  @Max(MAX_CANCEL_AFTER_DAYS)
  cancel_after_days?: number;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: PAYMENT_DESCRIPTION_MAX_LENGTH,
    example: 'Abonnement fibre',
    description: `${CHARACTERS}; shown on the hosted invoice page`,
  })
  @IsOptional()
  @IsString()
  @CodePointLength(0, PAYMENT_DESCRIPTION_MAX_LENGTH)
  description?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: CLIENT_REFERENCE_MAX_LENGTH,
    example: 'contrat-1042',
    description: CHARACTERS,
  })
  @IsOptional()
  @IsString()
  @CodePointLength(0, CLIENT_REFERENCE_MAX_LENGTH)
  client_reference?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 500 },
    example: { contract: '1042' },
  })
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, string>;
}
