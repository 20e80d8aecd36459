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
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  CUSTOMER_PROVIDERS,
  MAX_PAYMENT_AMOUNT,
  MODES,
  PAYMENT_PROVIDERS,
  type CustomerProvider,
  type Mode,
  type PaymentProvider,
} from '@xaalis/kernel';
import { ListReply } from './list-reply';
import { idPattern, ISO_MS } from './formats';

/**
 * Payments' bus messages. The gateway validated the HTTP input already; these classes check the
 * message again at the payments app (STYLE 7) with the same bounds, so a bad message can never
 * reach the decider whatever sent it.
 */
export const PAYMENT_STATUSES = [
  'requires_payment_method',
  'processing',
  'succeeded',
  'failed',
  'expired',
  'refunded',
] as const;
export const PHONE_PATTERN = /^\+2217[0-9]{8}$/;

export class MerchantScope {
  @Matches(idPattern('mer'), { message: 'merchant_id must be a merchant id (mer_…)' })
  merchant_id!: string;

  @IsIn(MODES)
  mode!: Mode;
}

/** CONTRACT 4 paging of one of a merchant's lists, in one mode. */
export class ListRequest extends MerchantScope {
  @IsInt()
  @Min(1)
  @Max(100)
  limit!: number;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  starting_after?: string;
}

export class PaymentCustomerMessage {
  @IsOptional()
  @Matches(PHONE_PATTERN)
  phone?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string | null;
}

/** `payments.payment.create`. */
export class CreatePaymentRequest extends MerchantScope {
  /**
   * Chosen by the caller: under an idempotency key, the same for every retry, so a retry after
   * a crash finds the payment the first run made instead of making a second one.
   */
  @Matches(idPattern('pay'))
  payment_id!: string;

  @IsString()
  @MaxLength(100)
  merchant_name!: string;

  @IsOptional()
  @IsString()
  aggregated_merchant_id?: string | null;

  @IsInt()
  @Min(1)
  @Max(MAX_PAYMENT_AMOUNT)
  amount!: number;

  @IsOptional()
  @IsIn(CUSTOMER_PROVIDERS)
  provider?: CustomerProvider;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  description?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  client_reference?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => PaymentCustomerMessage)
  customer?: PaymentCustomerMessage;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  success_url?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  cancel_url?: string;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, string>;
}

export class PaymentRef extends MerchantScope {
  @IsString()
  @MaxLength(255)
  payment_id!: string;
}

/** `payments.payment.list`: CONTRACT 4 plus a status filter. */
export class ListPaymentsRequest extends ListRequest {
  @IsOptional()
  @IsIn(PAYMENT_STATUSES)
  status?: (typeof PAYMENT_STATUSES)[number];
}

/** `payments.test_helpers.apply` (CONTRACT 6): exactly the effects of the real trigger. */
export class PaymentTestHelperRequest extends PaymentRef {
  @IsIn(['succeed', 'fail', 'expire'])
  action!: 'succeed' | 'fail' | 'expire';
}

/** Customer side: the payment client secret is the only credential. */
export class PublicPaymentRef {
  @IsString()
  @MaxLength(255)
  payment_id!: string;

  @IsString()
  @MaxLength(255)
  client_secret!: string;
}

export class PublicPayRequest extends PublicPaymentRef {
  @IsIn(CUSTOMER_PROVIDERS)
  provider!: CustomerProvider;

  @IsOptional()
  @Matches(PHONE_PATTERN)
  phone?: string;
}

export class SandboxRequest extends PublicPaymentRef {
  @IsIn(CUSTOMER_PROVIDERS)
  provider!: CustomerProvider;
}

export class SandboxActionRequest extends SandboxRequest {
  @IsIn(['approve', 'decline'])
  action!: 'approve' | 'decline';
}

/** `payments.provider.notify`: a provider's webhook or callback, verified by the payments app. */
export class ProviderNotificationRequest {
  @IsIn(CUSTOMER_PROVIDERS)
  provider!: CustomerProvider;

  @IsObject()
  headers!: Record<string, string | undefined>;

  @IsString()
  @MaxLength(1_048_576)
  raw_body!: string;
}

export class ProviderNotificationReply {
  @IsBoolean()
  accepted!: boolean;
}

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

  @ApiProperty({ enum: ['XOF'] })
  @IsIn(['XOF'])
  currency!: 'XOF';

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
  status!: (typeof PAYMENT_STATUSES)[number];

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

  @ApiProperty({ enum: ['XOF'] })
  @IsIn(['XOF'])
  currency!: 'XOF';

  @ApiProperty({ enum: PAYMENT_STATUSES })
  @IsIn(PAYMENT_STATUSES)
  status!: (typeof PAYMENT_STATUSES)[number];

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
  status!: (typeof PAYMENT_STATUSES)[number];
}
