import { fold } from '@xaalis/kernel';
import { DAY_MS } from './billing-period';
import { invoiceIdFor } from './invoice-id';
import type {
  AdvanceTestClock,
  CancelSubscription,
  CreateSubscription,
  PaymentCheckout,
  RecordInvoicePaid,
  RecordInvoicePaymentFailed,
  StartInvoicePayment,
  Tick,
} from './subscription.commands';
import type {
  CancellationReason,
  InvoiceCreated,
  SubscriptionCreated,
  SubscriptionEvent,
} from './subscription.events';
import {
  evolve,
  exists,
  initialState,
  type Subscription,
  type SubscriptionState,
} from './subscription.state';

/** Fixture builders for the subscription's given/when/then tests. */
export const SUBSCRIPTION_ID = 'sub_01JD0000000000000000000000';
export const MERCHANT_ID = 'mer_01JD0000000000000000000000';
export const MERCHANT_NAME = 'Sénélec Fibre';
export const INVOICE_ID = invoiceIdFor(SUBSCRIPTION_ID, 0);
export const SECOND_INVOICE_ID = invoiceIdFor(SUBSCRIPTION_ID, 1);
export const THIRD_INVOICE_ID = invoiceIdFor(SUBSCRIPTION_ID, 2);
export const PAYMENT_ID = 'pay_01JD0000000000000000000000';
export const OTHER_PAYMENT_ID = 'pay_01JD0000000000000000000001';
export const CUSTOMER_PHONE = '+221771234567';
export const AMOUNT = 5_000;
export const BASE_URL = 'https://pay.xaalis.sn';

/** The anchor: a monthly subscription, 3 days to pay, 14 days of grace. */
export const T0 = new Date('2026-11-22T10:00:00.000Z');
export const DAY = DAY_MS;
/** `n` days (fractions allowed) after T0. */
export const day = (n: number): Date => new Date(T0.getTime() + n * DAY);
export const iso = (date: Date): string => date.toISOString();

/** Invoice 0 of the default subscription, by hand. */
export const DUE_AT = day(3);
export const GRACE_ENDS_AT = day(17);
export const SECOND_PERIOD_START = new Date('2026-12-22T10:00:00.000Z');

// Events.

export const subscriptionCreated = (
  overrides: Partial<SubscriptionCreated['data']> = {},
): SubscriptionCreated => ({
  type: 'SubscriptionCreated',
  data: {
    subscriptionId: SUBSCRIPTION_ID,
    merchantId: MERCHANT_ID,
    merchantName: MERCHANT_NAME,
    mode: 'test',
    customer: { phone: CUSTOMER_PHONE, name: 'Awa Diop', email: 'awa@example.sn' },
    amount: AMOUNT,
    currency: 'XOF',
    interval: 'month',
    intervalCount: 1,
    billingCycles: null,
    daysUntilDue: 3,
    cancelAfterDays: 14,
    description: 'Abonnement fibre',
    clientReference: 'contract-42',
    metadata: { plan: 'fibre-100' },
    createdAt: iso(T0),
    ...overrides,
  },
});

export const invoiceCreated = (
  overrides: Partial<InvoiceCreated['data']> = {},
): InvoiceCreated => ({
  type: 'InvoiceCreated',
  data: {
    subscriptionId: SUBSCRIPTION_ID,
    invoiceId: INVOICE_ID,
    periodIndex: 0,
    periodStart: iso(T0),
    periodEnd: iso(SECOND_PERIOD_START),
    amount: AMOUNT,
    currency: 'XOF',
    dueAt: iso(DUE_AT),
    graceEndsAt: iso(GRACE_ENDS_AT),
    createdAt: iso(T0),
    ...overrides,
  },
});

/** Invoice 1 of the default subscription, opened at 22 December. */
export const secondInvoiceCreated = (): InvoiceCreated =>
  invoiceCreated({
    invoiceId: SECOND_INVOICE_ID,
    periodIndex: 1,
    periodStart: '2026-12-22T10:00:00.000Z',
    periodEnd: '2027-01-22T10:00:00.000Z',
    dueAt: '2026-12-25T10:00:00.000Z',
    graceEndsAt: '2027-01-08T10:00:00.000Z',
    createdAt: '2026-12-22T10:00:00.000Z',
  });

const ids = (invoiceId: string) => ({ subscriptionId: SUBSCRIPTION_ID, invoiceId });

export const reminderSent = (
  remindersSent: number,
  when: Date,
  invoiceId = INVOICE_ID,
): SubscriptionEvent => ({
  type: 'InvoiceReminderSent',
  data: { ...ids(invoiceId), remindersSent, sentAt: iso(when) },
});

export const invoiceOverdue = (when = DUE_AT, invoiceId = INVOICE_ID): SubscriptionEvent => ({
  type: 'InvoiceOverdue',
  data: { ...ids(invoiceId), overdueAt: iso(when) },
});

export const pastDue = (when = DUE_AT, invoiceId = INVOICE_ID): SubscriptionEvent => ({
  type: 'SubscriptionPastDue',
  data: { ...ids(invoiceId), pastDueAt: iso(when) },
});

export const invoiceUncollectible = (
  when = GRACE_ENDS_AT,
  invoiceId = INVOICE_ID,
): SubscriptionEvent => ({
  type: 'InvoiceUncollectible',
  data: { ...ids(invoiceId), markedAt: iso(when) },
});

export const cancelScheduled = (when = day(1)): SubscriptionEvent => ({
  type: 'SubscriptionCancelScheduled',
  data: { subscriptionId: SUBSCRIPTION_ID, scheduledAt: iso(when) },
});

export const canceled = (reason: CancellationReason, when: Date): SubscriptionEvent => ({
  type: 'SubscriptionCanceled',
  data: { subscriptionId: SUBSCRIPTION_ID, reason, canceledAt: iso(when) },
});

export const invoiceVoided = (when = day(1), invoiceId = INVOICE_ID): SubscriptionEvent => ({
  type: 'InvoiceVoided',
  data: { ...ids(invoiceId), voidedAt: iso(when) },
});

export const paymentStarted = (
  paymentId = PAYMENT_ID,
  when = day(1),
  invoiceId = INVOICE_ID,
): SubscriptionEvent => ({
  type: 'InvoicePaymentStarted',
  data: { ...ids(invoiceId), paymentId, startedAt: iso(when) },
});

export const paymentFailed = (
  paymentId = PAYMENT_ID,
  when = day(1.5),
  invoiceId = INVOICE_ID,
): SubscriptionEvent => ({
  type: 'InvoicePaymentFailed',
  data: { ...ids(invoiceId), paymentId, failedAt: iso(when) },
});

export const invoicePaid = (
  paymentId = PAYMENT_ID,
  when = day(2),
  invoiceId = INVOICE_ID,
): SubscriptionEvent => ({
  type: 'InvoicePaid',
  data: { ...ids(invoiceId), paymentId, paidAt: iso(when) },
});

export const extraPaymentReceived = (
  paymentId = OTHER_PAYMENT_ID,
  when = day(2.5),
  invoiceId = INVOICE_ID,
): SubscriptionEvent => ({
  type: 'InvoiceExtraPaymentReceived',
  data: { ...ids(invoiceId), paymentId, receivedAt: iso(when) },
});

export const returnedToActive = (when: Date): SubscriptionEvent => ({
  type: 'SubscriptionReturnedToActive',
  data: { subscriptionId: SUBSCRIPTION_ID, returnedAt: iso(when) },
});

export const completed = (when: Date): SubscriptionEvent => ({
  type: 'SubscriptionCompleted',
  data: { subscriptionId: SUBSCRIPTION_ID, completedAt: iso(when) },
});

export const clockAdvanced = (
  idempotencyKey: string,
  offsetMs: number,
  to: Date,
): SubscriptionEvent => ({
  type: 'TestClockAdvanced',
  data: { subscriptionId: SUBSCRIPTION_ID, idempotencyKey, offsetMs, advancedTo: iso(to) },
});

// Histories.

/** A test subscription with its first invoice open, as created at T0. */
export const newSubscription = (): SubscriptionEvent[] => [subscriptionCreated(), invoiceCreated()];
export const newLiveSubscription = (): SubscriptionEvent[] => [
  subscriptionCreated({ mode: 'live' }),
  invoiceCreated(),
];
/** Invoice 0 overdue and unpaid: the subscription is past due. */
export const newPastDueSubscription = (): SubscriptionEvent[] => [
  ...newSubscription(),
  reminderSent(1, day(2)),
  reminderSent(2, DUE_AT),
  invoiceOverdue(),
  pastDue(),
];

export const stateOf = (events: readonly SubscriptionEvent[]): SubscriptionState =>
  fold(evolve, initialState(), events);

export function subscriptionOf(events: readonly SubscriptionEvent[]): Subscription {
  const state = stateOf(events);
  if (!exists(state)) throw new Error('fixture: these events create no subscription');
  return state;
}

// Commands.

export const createSubscription = (
  overrides: Partial<CreateSubscription['data']> = {},
): CreateSubscription => ({
  type: 'CreateSubscription',
  data: {
    subscriptionId: SUBSCRIPTION_ID,
    merchantId: MERCHANT_ID,
    merchantName: MERCHANT_NAME,
    mode: 'test',
    customer: { phone: CUSTOMER_PHONE, name: 'Awa Diop', email: 'awa@example.sn' },
    amount: AMOUNT,
    interval: 'month',
    description: 'Abonnement fibre',
    clientReference: 'contract-42',
    metadata: { plan: 'fibre-100' },
    now: T0,
    ...overrides,
  },
});

export const tick = (now: Date): Tick => ({ type: 'Tick', data: { now } });

export const advanceTestClock = (idempotencyKey: string, now = T0): AdvanceTestClock => ({
  type: 'AdvanceTestClock',
  data: { idempotencyKey, now },
});

export const cancelSubscription = (
  atPeriodEnd: boolean,
  pendingPayments: PaymentCheckout[] = [],
  now = day(1),
): CancelSubscription => ({
  type: 'CancelSubscription',
  data: { atPeriodEnd, pendingPayments, now },
});

export const startInvoicePayment = (
  paymentId = PAYMENT_ID,
  now = day(1),
  invoiceId = INVOICE_ID,
): StartInvoicePayment => ({ type: 'StartInvoicePayment', data: { invoiceId, paymentId, now } });

export const recordPaymentFailed = (
  paymentId = PAYMENT_ID,
  now = day(1.5),
  invoiceId = INVOICE_ID,
): RecordInvoicePaymentFailed => ({
  type: 'RecordInvoicePaymentFailed',
  data: { invoiceId, paymentId, now },
});

export const recordInvoicePaid = (
  paymentId = PAYMENT_ID,
  paidAt = day(2),
  invoiceId = INVOICE_ID,
): RecordInvoicePaid => ({ type: 'RecordInvoicePaid', data: { invoiceId, paymentId, paidAt } });
