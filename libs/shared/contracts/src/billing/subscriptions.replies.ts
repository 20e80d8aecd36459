import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
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
  BILLING_INTERVALS,
  CURRENCIES,
  INVOICE_STATUSES,
  PAYMENT_STATUSES,
  SUBSCRIPTION_STATUSES,
  type BillingInterval,
  type Currency,
  type InvoiceStatus,
  type PaymentStatus,
  type SubscriptionStatus,
} from '@xaalis/kernel';
import { idPattern, ISO_MS } from '../shared/formats';
import { ListReply } from '../shared/list-reply';

/**
 * What the billing app answers of subscriptions and invoices (spec 2.3, 2.4), documented for the
 * OpenAPI document beside the checks the gateway runs on a reply; also `data.object` of the
 * invoice and subscription events.
 */

const DATE_TIME = { format: 'date-time' } as const;
const NULLABLE_DATE_TIME = { type: 'string', format: 'date-time', nullable: true } as const;

/** Spec 2.4. */
export class InvoiceReply {
  @ApiProperty({ example: 'in_01JD8ZP5V6W7X8Y9Z0A1B2C3D40000' })
  @Matches(idPattern('in'))
  id!: string;

  @ApiProperty({ enum: ['invoice'] })
  @IsIn(['invoice'])
  object!: 'invoice';

  @ApiProperty()
  @IsBoolean()
  livemode!: boolean;

  @ApiProperty({
    description: 'The owning subscription',
    example: 'sub_01JD8ZP5V6W7X8Y9Z0A1B2C3D4',
  })
  @Matches(idPattern('sub'))
  subscription!: string;

  @ApiProperty({ type: 'integer', description: '0 for the period starting at creation' })
  @IsInt()
  period_index!: number;

  @ApiProperty(DATE_TIME)
  @Matches(ISO_MS)
  period_start!: string;

  @ApiProperty(DATE_TIME)
  @Matches(ISO_MS)
  period_end!: string;

  @ApiProperty({ type: 'integer', description: 'XOF' })
  @IsInt()
  amount!: number;

  @ApiProperty({ enum: CURRENCIES })
  @IsIn(CURRENCIES)
  currency!: Currency;

  @ApiProperty({ enum: INVOICE_STATUSES })
  @IsIn(INVOICE_STATUSES)
  status!: InvoiceStatus;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The current payment attempt; a confirmed failed attempt may be replaced',
  })
  @Allow()
  payment!: string | null;

  @ApiProperty({
    format: 'uri',
    description: 'Stable customer link, payable until `grace_ends_at`',
  })
  @IsString()
  hosted_invoice_url!: string;

  @ApiProperty({ ...DATE_TIME, description: 'Overdue after this time, still payable in grace' })
  @Matches(ISO_MS)
  due_at!: string;

  @ApiProperty(DATE_TIME)
  @Matches(ISO_MS)
  grace_ends_at!: string;

  @ApiProperty(NULLABLE_DATE_TIME)
  @Allow()
  paid_at!: string | null;

  @ApiProperty({ type: 'integer' })
  @IsInt()
  reminders_sent!: number;

  @ApiProperty(DATE_TIME)
  @Matches(ISO_MS)
  created_at!: string;
}

export class SubscriptionCustomerReply {
  @ApiProperty({ example: '+221771234567' })
  @IsString()
  phone!: string;

  @ApiProperty({ example: 'Awa Diop' })
  @IsString()
  name!: string;

  @ApiProperty({ type: 'string', nullable: true, format: 'email' })
  @Allow()
  email!: string | null;
}

/** Spec 2.3, with the latest invoice embedded. */
export class SubscriptionReply {
  @ApiProperty({ example: 'sub_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  @Matches(idPattern('sub'))
  id!: string;

  @ApiProperty({ enum: ['subscription'] })
  @IsIn(['subscription'])
  object!: 'subscription';

  @ApiProperty()
  @IsBoolean()
  livemode!: boolean;

  @ApiProperty({ enum: SUBSCRIPTION_STATUSES })
  @IsIn(SUBSCRIPTION_STATUSES)
  status!: SubscriptionStatus;

  @ApiProperty({ type: SubscriptionCustomerReply })
  @ValidateNested()
  @Type(() => SubscriptionCustomerReply)
  customer!: SubscriptionCustomerReply;

  @ApiProperty({ type: 'integer', description: 'XOF per period' })
  @IsInt()
  amount!: number;

  @ApiProperty({ enum: CURRENCIES })
  @IsIn(CURRENCIES)
  currency!: Currency;

  @ApiProperty({ enum: BILLING_INTERVALS })
  @IsIn(BILLING_INTERVALS)
  interval!: BillingInterval;

  @ApiProperty({ type: 'integer' })
  @IsInt()
  interval_count!: number;

  @ApiProperty({ type: 'integer', nullable: true, description: 'null: no fixed number' })
  @IsOptional()
  @IsInt()
  billing_cycles!: number | null;

  @ApiProperty({ type: 'integer' })
  @IsInt()
  cycles_paid!: number;

  @ApiProperty(DATE_TIME)
  @Matches(ISO_MS)
  current_period_start!: string;

  @ApiProperty(DATE_TIME)
  @Matches(ISO_MS)
  current_period_end!: string;

  @ApiProperty({ ...NULLABLE_DATE_TIME, description: 'null once nothing more will be billed' })
  @Allow()
  next_invoice_at!: string | null;

  @ApiProperty()
  @IsBoolean()
  cancel_at_period_end!: boolean;

  @ApiProperty(NULLABLE_DATE_TIME)
  @Allow()
  canceled_at!: string | null;

  @ApiProperty(NULLABLE_DATE_TIME)
  @Allow()
  completed_at!: string | null;

  @ApiProperty({ type: 'integer' })
  @IsInt()
  days_until_due!: number;

  @ApiProperty({ type: 'integer' })
  @IsInt()
  cancel_after_days!: number;

  @ApiProperty({ type: 'string', nullable: true })
  @Allow()
  description!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  @Allow()
  client_reference!: string | null;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  @IsObject()
  metadata!: Record<string, string>;

  @ApiProperty({ type: InvoiceReply })
  @ValidateNested()
  @Type(() => InvoiceReply)
  latest_invoice!: InvoiceReply;

  @ApiProperty(DATE_TIME)
  @Matches(ISO_MS)
  created_at!: string;
}

export class PendingPaymentReply {
  @ApiProperty({ example: 'pay_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  @IsString()
  id!: string;

  @ApiProperty({ enum: PAYMENT_STATUSES })
  @IsIn(PAYMENT_STATUSES)
  status!: PaymentStatus;
}

/**
 * Spec 4.2: the cancel response, with the payment still in flight when there is one (absent
 * otherwise).
 */
export class CanceledSubscriptionReply extends SubscriptionReply {
  @ApiProperty({
    type: PendingPaymentReply,
    required: false,
    description:
      'Present when a provider payment is still in flight: it may settle after cancellation',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => PendingPaymentReply)
  pending_payment?: PendingPaymentReply;
}

export class SubscriptionListReply extends ListReply(SubscriptionReply) {}
export class InvoiceListReply extends ListReply(InvoiceReply) {}

/** What the hosted invoice page shows: the invoice, whom it is owed to and what for. */
export class PublicInvoiceReply {
  @ValidateNested()
  @Type(() => InvoiceReply)
  invoice!: InvoiceReply;

  @IsString()
  merchant_name!: string;

  @Allow()
  description!: string | null;

  @IsIn(BILLING_INTERVALS)
  interval!: BillingInterval;

  @IsInt()
  interval_count!: number;

  /** False past `grace_ends_at`, or once the invoice is no longer `open`. */
  @IsBoolean()
  payable!: boolean;

  /** Payable, and past `due_at` (`invoice.overdue` was emitted): the page says so, and until when. */
  @IsBoolean()
  overdue!: boolean;
}

/** Where the customer pays the invoice: the hosted checkout of its current payment attempt. */
export class InvoiceCheckoutReply {
  @IsString()
  checkout_url!: string;
}
