import { Type } from 'class-transformer';
import {
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
  CLIENT_REFERENCE_MAX_LENGTH,
  CUSTOMER_NAME_MAX_LENGTH,
  CUSTOMER_PROVIDERS,
  MAX_PAYMENT_AMOUNT,
  PAYMENT_DESCRIPTION_MAX_LENGTH,
  PAYMENT_STATUSES,
  PHONE_PATTERN,
  URL_MAX_LENGTH,
  type CustomerProvider,
  type PaymentStatus,
} from '@xaalis/kernel';
import { idPattern } from '../shared/formats';
import { ListRequest, MerchantScope } from '../shared/merchant-scope';

/**
 * Payments' bus messages. The gateway validated the HTTP input already; these classes check the
 * message again at the payments app (STYLE 7) with the same bounds, so a bad message can never
 * reach the decider whatever sent it.
 */
export class PaymentCustomerMessage {
  @IsOptional()
  @Matches(PHONE_PATTERN)
  phone?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(CUSTOMER_NAME_MAX_LENGTH)
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
  @MaxLength(PAYMENT_DESCRIPTION_MAX_LENGTH)
  description?: string;

  @IsOptional()
  @IsString()
  @MaxLength(CLIENT_REFERENCE_MAX_LENGTH)
  client_reference?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => PaymentCustomerMessage)
  customer?: PaymentCustomerMessage;

  @IsOptional()
  @IsString()
  @MaxLength(URL_MAX_LENGTH)
  success_url?: string;

  @IsOptional()
  @IsString()
  @MaxLength(URL_MAX_LENGTH)
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
  status?: PaymentStatus;
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
