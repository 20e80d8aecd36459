/**
 * What a subscription and an invoice may be (spec 2.3, 2.4, 4.2 and 8), for the gateway's DTOs,
 * the billing messages and the deciders alike.
 */

/** Spec 8: a subscription's `amount`, whole XOF per period. */
export const MIN_SUBSCRIPTION_AMOUNT = 100;
export const MAX_SUBSCRIPTION_AMOUNT = 100_000_000;

/** Spec 4.2. */
export const BILLING_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

/** Spec 8: `interval_count`, 1 to 12, default 1. */
export const MIN_INTERVAL_COUNT = 1;
export const MAX_INTERVAL_COUNT = 12;
export const DEFAULT_INTERVAL_COUNT = 1;

/** Spec 8: `billing_cycles`, 2 to 24, or null for no fixed number. */
export const MIN_BILLING_CYCLES = 2;
export const MAX_BILLING_CYCLES = 24;

/** Spec 8: `days_until_due`, 1 to 30, default 3. */
export const MIN_DAYS_UNTIL_DUE = 1;
export const MAX_DAYS_UNTIL_DUE = 30;
export const DEFAULT_DAYS_UNTIL_DUE = 3;

/** Spec 8: `cancel_after_days`, 1 to 60, default 14. */
export const MIN_CANCEL_AFTER_DAYS = 1;
export const MAX_CANCEL_AFTER_DAYS = 60;
export const DEFAULT_CANCEL_AFTER_DAYS = 14;

/** Spec 4.2: the subscription customer's `name`, 1 to 100 characters. */
export const SUBSCRIPTION_CUSTOMER_NAME_MIN_LENGTH = 1;
export const SUBSCRIPTION_CUSTOMER_NAME_MAX_LENGTH = 100;
/** Not bounded by the spec; the longest address RFC 5321 lets through. */
export const EMAIL_MAX_LENGTH = 254;

/** Spec 3.3. */
export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled', 'completed'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Spec 3.2. */
export const INVOICE_STATUSES = ['open', 'paid', 'void', 'uncollectible'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
