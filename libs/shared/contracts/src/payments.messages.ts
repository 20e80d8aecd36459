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
import { MODES, type Mode } from '@xaalis/kernel';
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
export const CUSTOMER_PROVIDER_NAMES = ['wave', 'orange_money'] as const;
export const PROVIDER_NAMES = ['wave', 'orange_money', 'mock'] as const;
export const PHONE_PATTERN = /^\+2217[0-9]{8}$/;
export const MAX_PAYMENT_AMOUNT = 100_000_000;

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
  @IsIn(CUSTOMER_PROVIDER_NAMES)
  provider?: 'wave' | 'orange_money';

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
  @IsIn(CUSTOMER_PROVIDER_NAMES)
  provider!: 'wave' | 'orange_money';

  @IsOptional()
  @Matches(PHONE_PATTERN)
  phone?: string;
}

export class SandboxRequest extends PublicPaymentRef {
  @IsIn(CUSTOMER_PROVIDER_NAMES)
  provider!: 'wave' | 'orange_money';
}

export class SandboxActionRequest extends SandboxRequest {
  @IsIn(['approve', 'decline'])
  action!: 'approve' | 'decline';
}

/** `payments.provider.notify`: a provider's webhook or callback, verified by the payments app. */
export class ProviderNotificationRequest {
  @IsIn(CUSTOMER_PROVIDER_NAMES)
  provider!: 'wave' | 'orange_money';

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
  @IsIn(['redirect'])
  type!: 'redirect';

  @IsString()
  url!: string;
}

/** Spec 2.1, as `GET /v1/payments/{id}` returns it. */
export class PaymentReply {
  @Matches(idPattern('pay'))
  id!: string;

  @IsIn(['payment'])
  object!: 'payment';

  @IsBoolean()
  livemode!: boolean;

  @IsInt()
  amount!: number;

  @IsIn(['XOF'])
  currency!: 'XOF';

  @IsInt()
  fee!: number;

  @IsInt()
  net!: number;

  @IsInt()
  amount_refunded!: number;

  @IsIn(PAYMENT_STATUSES)
  status!: (typeof PAYMENT_STATUSES)[number];

  @IsOptional()
  @IsIn(PROVIDER_NAMES)
  provider!: (typeof PROVIDER_NAMES)[number] | null;

  @Allow()
  client_reference!: string | null;

  @Allow()
  description!: string | null;

  @IsObject()
  customer!: { phone: string | null; name: string | null };

  @IsString()
  checkout_url!: string;

  @ValidateNested()
  @Type(() => NextActionMessage)
  next_action!: NextActionMessage;

  @IsObject()
  metadata!: Record<string, string>;

  @Allow()
  failure_reason!: string | null;

  @Allow()
  provider_transaction_id!: string | null;

  @Matches(ISO_MS)
  expires_at!: string;

  @Allow()
  succeeded_at!: string | null;

  @Matches(ISO_MS)
  created_at!: string;
}

export class PaymentListReply extends ListReply(PaymentReply) {}

/** Spec 2.2, the customer-facing view. */
export class CustomerPaymentReply {
  @Matches(idPattern('pay'))
  id!: string;

  @IsBoolean()
  livemode!: boolean;

  @IsInt()
  amount!: number;

  @IsIn(['XOF'])
  currency!: 'XOF';

  @IsIn(PAYMENT_STATUSES)
  status!: (typeof PAYMENT_STATUSES)[number];

  @Allow()
  description!: string | null;

  @IsObject()
  merchant!: { name: string };

  @IsOptional()
  @IsIn(PROVIDER_NAMES)
  provider!: (typeof PROVIDER_NAMES)[number] | null;

  @IsArray()
  @IsIn(CUSTOMER_PROVIDER_NAMES, { each: true })
  available_providers!: ('wave' | 'orange_money')[];

  @ValidateNested()
  @Type(() => NextActionMessage)
  next_action!: NextActionMessage;

  @Matches(ISO_MS)
  expires_at!: string;

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

  @IsIn(CUSTOMER_PROVIDER_NAMES)
  provider!: 'wave' | 'orange_money';

  @IsIn(PAYMENT_STATUSES)
  status!: (typeof PAYMENT_STATUSES)[number];
}
