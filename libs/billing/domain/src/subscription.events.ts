import type { BillingInterval, Currency, Mode } from '@xaalis/kernel';

/**
 * Facts of the subscription aggregate (stream `subscription-<sub_id>`). The subscription owns its
 * invoices: every decision about a subscription and its invoices (an overdue invoice making the
 * subscription past due, a payment completing it, a cancel voiding invoices) is one decision on
 * one stream, appended with the expected revision, on Postgres and EventStoreDB alike.
 *
 * Every instant written here is on the subscription's own clock (the application clock plus the
 * test clock's offset, which is 0 in live mode), so a test subscription's history reads as one
 * timeline however far it was advanced.
 */
export interface SubscriptionCustomer {
  phone: string;
  name: string;
  email: string | null;
}

export type SubscriptionCreated = {
  type: 'SubscriptionCreated';
  data: {
    subscriptionId: string;
    merchantId: string;
    merchantName: string;
    mode: Mode;
    customer: SubscriptionCustomer;
    amount: number;
    currency: Currency;
    interval: BillingInterval;
    intervalCount: number;
    billingCycles: number | null;
    daysUntilDue: number;
    cancelAfterDays: number;
    description: string | null;
    clientReference: string | null;
    metadata: Record<string, string>;
    /** Also the billing anchor: every period is computed from it. */
    createdAt: string;
  };
};

/** An invoice opened at its period's start (CONTRACT 7), with its deadlines fixed once. */
export type InvoiceCreated = {
  type: 'InvoiceCreated';
  data: {
    subscriptionId: string;
    invoiceId: string;
    periodIndex: number;
    periodStart: string;
    periodEnd: string;
    amount: number;
    currency: Currency;
    dueAt: string;
    graceEndsAt: string;
    createdAt: string;
  };
};

/** `remindersSent` is the invoice's count with this one: a replay cannot count one twice. */
export type InvoiceReminderSent = {
  type: 'InvoiceReminderSent';
  data: { subscriptionId: string; invoiceId: string; remindersSent: number; sentAt: string };
};

export type InvoiceOverdue = {
  type: 'InvoiceOverdue';
  data: { subscriptionId: string; invoiceId: string; overdueAt: string };
};

/** `invoiceId`: the overdue invoice that made it so. */
export type SubscriptionPastDue = {
  type: 'SubscriptionPastDue';
  data: { subscriptionId: string; invoiceId: string; pastDueAt: string };
};

export type InvoiceUncollectible = {
  type: 'InvoiceUncollectible';
  data: { subscriptionId: string; invoiceId: string; markedAt: string };
};

/** Cancel with `at_period_end`: no invoice after the current one. */
export type SubscriptionCancelScheduled = {
  type: 'SubscriptionCancelScheduled';
  data: { subscriptionId: string; scheduledAt: string };
};

/**
 * Why it ended: the merchant canceled now, the scheduled cancel reached the period's end, or an
 * invoice went unpaid past its grace.
 */
export const CANCELLATION_REASONS = ['requested', 'period_end', 'uncollectible'] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

export type SubscriptionCanceled = {
  type: 'SubscriptionCanceled';
  data: { subscriptionId: string; reason: CancellationReason; canceledAt: string };
};

export type InvoiceVoided = {
  type: 'InvoiceVoided';
  data: { subscriptionId: string; invoiceId: string; voidedAt: string };
};

/** The invoice's current payment attempt (spec 2.4 `payment`). */
export type InvoicePaymentStarted = {
  type: 'InvoicePaymentStarted';
  data: { subscriptionId: string; invoiceId: string; paymentId: string; startedAt: string };
};

/** The attempt was confirmed failed: it may be replaced. */
export type InvoicePaymentFailed = {
  type: 'InvoicePaymentFailed';
  data: { subscriptionId: string; invoiceId: string; paymentId: string; failedAt: string };
};

/** Also from `void` or `uncollectible`: see `recordInvoicePaid`. */
export type InvoicePaid = {
  type: 'InvoicePaid';
  data: { subscriptionId: string; invoiceId: string; paymentId: string; paidAt: string };
};

/**
 * A second payment succeeded for an invoice already paid: the money is real, so it is recorded
 * (for the merchant to refund), but it pays nothing more.
 */
export type InvoiceExtraPaymentReceived = {
  type: 'InvoiceExtraPaymentReceived';
  data: { subscriptionId: string; invoiceId: string; paymentId: string; receivedAt: string };
};

/** Past due no more: no open invoice is overdue. */
export type SubscriptionReturnedToActive = {
  type: 'SubscriptionReturnedToActive';
  data: { subscriptionId: string; returnedAt: string };
};

export type SubscriptionCompleted = {
  type: 'SubscriptionCompleted';
  data: { subscriptionId: string; completedAt: string };
};

/**
 * A test advance (spec 4.2): the test clock's offset from the application clock, in total, and
 * the instant it moved to. The idempotency key is kept so that it never advances twice.
 */
export type TestClockAdvanced = {
  type: 'TestClockAdvanced';
  data: { subscriptionId: string; idempotencyKey: string; offsetMs: number; advancedTo: string };
};

export type SubscriptionEvent =
  | SubscriptionCreated
  | InvoiceCreated
  | InvoiceReminderSent
  | InvoiceOverdue
  | SubscriptionPastDue
  | InvoiceUncollectible
  | SubscriptionCancelScheduled
  | SubscriptionCanceled
  | InvoiceVoided
  | InvoicePaymentStarted
  | InvoicePaymentFailed
  | InvoicePaid
  | InvoiceExtraPaymentReceived
  | SubscriptionReturnedToActive
  | SubscriptionCompleted
  | TestClockAdvanced;

export type SubscriptionEventType = SubscriptionEvent['type'];

export const SUBSCRIPTION_EVENT_TYPES: readonly SubscriptionEventType[] = [
  'SubscriptionCreated',
  'InvoiceCreated',
  'InvoiceReminderSent',
  'InvoiceOverdue',
  'SubscriptionPastDue',
  'InvoiceUncollectible',
  'SubscriptionCancelScheduled',
  'SubscriptionCanceled',
  'InvoiceVoided',
  'InvoicePaymentStarted',
  'InvoicePaymentFailed',
  'InvoicePaid',
  'InvoiceExtraPaymentReceived',
  'SubscriptionReturnedToActive',
  'SubscriptionCompleted',
  'TestClockAdvanced',
];

export const SUBSCRIPTION_STREAM_PREFIX = 'subscription-';
export const subscriptionStream = (subscriptionId: string): string =>
  `${SUBSCRIPTION_STREAM_PREFIX}${subscriptionId}`;
