import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  ValidateNested,
} from 'class-validator';
import {
  CURRENCIES,
  CUSTOMER_PROVIDERS,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  type Currency,
  type CustomerProvider,
  type PaymentProvider,
  type PaymentStatus,
} from '@xaalis/kernel';
import { idPattern, ISO_MS } from '../shared/formats';
import { ListReply } from '../shared/list-reply';

/**
 * What the payments app answers: a payment as the merchant reads it (spec 2.1), as its customer
 * does (spec 2.2), as the sandbox page shows it. Documented for the OpenAPI document beside the
 * checks the gateway runs on a reply from another process.
 */

export class NextActionMessage {
  @ApiProperty({ enum: ['redirect'] })
  @IsIn(['redirect'])
  type!: 'redirect';

  @ApiProperty({ description: "The provider's page, or the hosted checkout" })
  @IsString()
  url!: string;
}

/** Null where not given, never left out (unlike the request's `PaymentCustomerMessage`). */
export class PaymentCustomerReply {
  @ApiProperty({ type: 'string', nullable: true, example: '+221771234567' })
  @IsOptional()
  @IsString()
  phone!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  @IsOptional()
  @IsString()
  name!: string | null;
}

/**
 * A nullable enum names `null` among its values: OpenAPI 3.0 validators check `enum` apart from
 * `nullable`.
 */
const NULLABLE_PROVIDER = { enum: [...PAYMENT_PROVIDERS, null], nullable: true } as const;

/** Spec 2.1, as `GET /v1/payments/{id}` returns it. */
export class PaymentReply {
  @ApiProperty({ example: 'pay_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  @Matches(idPattern('pay'))
  id!: string;

  @ApiProperty({ enum: ['payment'] })
  @IsIn(['payment'])
  object!: 'payment';

  @ApiProperty()
  @IsBoolean()
  livemode!: boolean;

  @ApiProperty({ type: 'integer', description: 'XOF' })
  @IsInt()
  amount!: number;

  @ApiProperty({ enum: CURRENCIES })
  @IsIn(CURRENCIES)
  currency!: Currency;

  @ApiProperty({ type: 'integer' })
  @IsInt()
  fee!: number;

  @ApiProperty({ type: 'integer', description: 'The amount after the fee' })
  @IsInt()
  net!: number;

  @ApiProperty({
    type: 'integer',
    description: 'What refunds returned to the customer (CONTRACT 5)',
  })
  @IsInt()
  amount_refunded!: number;

  @ApiProperty({ enum: PAYMENT_STATUSES })
  @IsIn(PAYMENT_STATUSES)
  status!: PaymentStatus;

  @ApiProperty(NULLABLE_PROVIDER)
  @IsOptional()
  @IsIn(PAYMENT_PROVIDERS)
  provider!: PaymentProvider | null;

  @ApiProperty({ type: 'string', nullable: true, description: "The merchant's own order id" })
  @Allow()
  client_reference!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  @Allow()
  description!: string | null;

  @ApiProperty({ type: PaymentCustomerReply })
  @ValidateNested()
  @Type(() => PaymentCustomerReply)
  customer!: PaymentCustomerReply;

  @ApiProperty({ description: 'The hosted checkout page' })
  @IsString()
  checkout_url!: string;

  @ApiProperty({ type: NextActionMessage })
  @ValidateNested()
  @Type(() => NextActionMessage)
  next_action!: NextActionMessage;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  @IsObject()
  metadata!: Record<string, string>;

  @ApiProperty({ type: 'string', nullable: true })
  @Allow()
  failure_reason!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  @Allow()
  provider_transaction_id!: string | null;

  @ApiProperty({ format: 'date-time' })
  @Matches(ISO_MS)
  expires_at!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  @Allow()
  succeeded_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  @Matches(ISO_MS)
  created_at!: string;
}

export class PaymentListReply extends ListReply(PaymentReply) {}

/** The merchant as its customer sees it: by name only. */
export class PaymentMerchantReply {
  @ApiProperty()
  @IsString()
  name!: string;
}

/** Spec 2.2, the customer-facing view. */
export class CustomerPaymentReply {
  @ApiProperty({ example: 'pay_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  @Matches(idPattern('pay'))
  id!: string;

  @ApiProperty()
  @IsBoolean()
  livemode!: boolean;

  @ApiProperty({ type: 'integer', description: 'XOF' })
  @IsInt()
  amount!: number;

  @ApiProperty({ enum: CURRENCIES })
  @IsIn(CURRENCIES)
  currency!: Currency;

  @ApiProperty({ enum: PAYMENT_STATUSES })
  @IsIn(PAYMENT_STATUSES)
  status!: PaymentStatus;

  @ApiProperty({ type: 'string', nullable: true })
  @Allow()
  description!: string | null;

  @ApiProperty({ type: PaymentMerchantReply })
  @ValidateNested()
  @Type(() => PaymentMerchantReply)
  merchant!: PaymentMerchantReply;

  @ApiProperty(NULLABLE_PROVIDER)
  @IsOptional()
  @IsIn(PAYMENT_PROVIDERS)
  provider!: PaymentProvider | null;

  @ApiProperty({ enum: CUSTOMER_PROVIDERS, isArray: true })
  @IsArray()
  @IsIn(CUSTOMER_PROVIDERS, { each: true })
  available_providers!: CustomerProvider[];

  @ApiProperty({ type: NextActionMessage })
  @ValidateNested()
  @Type(() => NextActionMessage)
  next_action!: NextActionMessage;

  @ApiProperty({ format: 'date-time' })
  @Matches(ISO_MS)
  expires_at!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Where to send the customer once the payment has ended',
  })
  @Allow()
  return_url!: string | null;
}

/** What the sandbox page shows (CONTRACT 6): amount, merchant, the provider it imitates. */
export class SandboxPageReply {
  @Matches(idPattern('pay'))
  id!: string;

  @IsInt()
  amount!: number;

  @Allow()
  description!: string | null;

  @IsString()
  merchant_name!: string;

  @IsIn(CUSTOMER_PROVIDERS)
  provider!: CustomerProvider;

  @IsIn(PAYMENT_STATUSES)
  status!: PaymentStatus;
}
