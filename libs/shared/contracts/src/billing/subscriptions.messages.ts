import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  BILLING_INTERVALS,
  CLIENT_REFERENCE_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  INVOICE_STATUSES,
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
  SUBSCRIPTION_STATUSES,
  URL_MAX_LENGTH,
  type BillingInterval,
  type InvoiceStatus,
  type SubscriptionStatus,
} from '@xaalis/kernel';
import { idPattern } from '../shared/formats';
import { ListRequest, MerchantScope } from '../shared/merchant-scope';

/**
 * Billing's bus messages (spec 4.2, CONTRACT 4 and 7), asked by the gateway and answered by the
 * billing app, which checks each again with the bounds the DTOs use.
 */

export class SubscriptionCustomerMessage {
  @Matches(PHONE_PATTERN)
  phone!: string;

  @IsString()
  @Length(SUBSCRIPTION_CUSTOMER_NAME_MIN_LENGTH, SUBSCRIPTION_CUSTOMER_NAME_MAX_LENGTH * 2)
  name!: string;

  @ValidateIf((_, value) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(EMAIL_MAX_LENGTH)
  email?: string | null;
}

/** `billing.subscription.create`: the id is fixed by the idempotency key, as a payment's is. */
export class CreateSubscriptionRequest extends MerchantScope {
  @Matches(idPattern('sub'), { message: 'subscription_id must be a subscription id (sub_…)' })
  subscription_id!: string;

  @IsString()
  @MaxLength(100)
  merchant_name!: string;

  @ValidateNested()
  @Type(() => SubscriptionCustomerMessage)
  customer!: SubscriptionCustomerMessage;

  @IsInt()
  @Min(MIN_SUBSCRIPTION_AMOUNT)
  @Max(MAX_SUBSCRIPTION_AMOUNT)
  amount!: number;

  @IsIn(BILLING_INTERVALS)
  interval!: BillingInterval;

  @IsInt()
  @Min(MIN_INTERVAL_COUNT)
  @Max(MAX_INTERVAL_COUNT)
  interval_count!: number;

  @ValidateIf((_, value) => value !== null)
  @IsInt()
  @Min(MIN_BILLING_CYCLES)
  @Max(MAX_BILLING_CYCLES)
  billing_cycles!: number | null;

  @IsInt()
  @Min(MIN_DAYS_UNTIL_DUE)
  @Max(MAX_DAYS_UNTIL_DUE)
  days_until_due!: number;

  @IsInt()
  @Min(MIN_CANCEL_AFTER_DAYS)
  @Max(MAX_CANCEL_AFTER_DAYS)
  cancel_after_days!: number;

  @IsOptional()
  @IsString()
  @MaxLength(PAYMENT_DESCRIPTION_MAX_LENGTH * 2)
  description?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(CLIENT_REFERENCE_MAX_LENGTH * 2)
  client_reference?: string | null;

  @IsObject()
  metadata!: Record<string, string>;
}

/**
 * Which subscription of the merchant, in the scope's mode: any id a path may hold, so that one
 * that names no subscription is a 404 like another merchant's.
 */
export class SubscriptionRef extends MerchantScope {
  @IsString()
  @MaxLength(255)
  subscription_id!: string;
}

/** `billing.subscription.cancel`. */
export class CancelSubscriptionRequest extends SubscriptionRef {
  @IsBoolean()
  at_period_end!: boolean;
}

/** `billing.subscription.test_advance`: the key names the advance, so it never applies twice. */
export class TestAdvanceRequest extends SubscriptionRef {
  @IsString()
  @Length(1, 255)
  idempotency_key!: string;
}

/** `billing.subscription.list`: CONTRACT 4 plus a status filter. */
export class ListSubscriptionsRequest extends ListRequest {
  @IsOptional()
  @IsIn(SUBSCRIPTION_STATUSES)
  status?: SubscriptionStatus;
}

export class InvoiceRef extends MerchantScope {
  @IsString()
  @MaxLength(255)
  invoice_id!: string;
}

/** `billing.invoice.list`: CONTRACT 4 plus subscription and status filters. */
export class ListInvoicesRequest extends ListRequest {
  @IsOptional()
  @IsString()
  @MaxLength(255)
  subscription?: string;

  @IsOptional()
  @IsIn(INVOICE_STATUSES)
  status?: InvoiceStatus;
}

/** The hosted invoice page: the invoice id in its stable link is the customer's only handle. */
export class PublicInvoiceRef {
  @IsString()
  @MaxLength(255)
  invoice_id!: string;
}

/** `billing.invoice.checkout`: the customer wants to pay; `return_url` brings them back. */
export class InvoiceCheckoutRequest extends PublicInvoiceRef {
  @IsString()
  @MaxLength(URL_MAX_LENGTH)
  return_url!: string;
}
