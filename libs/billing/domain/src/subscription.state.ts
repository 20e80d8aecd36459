import {
  assertNever,
  notFound,
  type BillingInterval,
  type Currency,
  type InvoiceStatus,
  type Mode,
  type SubscriptionStatus,
} from '@xaalis/kernel';
import type {
  CancellationReason,
  SubscriptionCustomer,
  SubscriptionEvent,
} from './subscription.events';

export interface Invoice {
  invoiceId: string;
  periodIndex: number;
  periodStart: string;
  periodEnd: string;
  amount: number;
  status: InvoiceStatus;
  /** The current payment attempt; once paid, the payment that paid it. */
  payment: string | null;
  dueAt: string;
  graceEndsAt: string;
  paidAt: string | null;
  remindersSent: number;
  /** `InvoiceOverdue` applied: the invoice is past due while it stays open. */
  overdue: boolean;
  /** Payments that succeeded after another had paid the invoice (to refund). */
  extraPayments: string[];
  createdAt: string;
}

export interface Subscription {
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
  status: SubscriptionStatus;
  cyclesPaid: number;
  cancelAtPeriodEnd: boolean;
  canceledAt: string | null;
  /** Why it was canceled, once it is. */
  cancellationReason: CancellationReason | null;
  completedAt: string | null;
  createdAt: string;
  /** Every invoice, by period index: periods may overlap open invoices (daily, 3 days to pay). */
  invoices: Invoice[];
  /** The test clock: the subscription's time is the application's plus this (0 in live mode). */
  clockOffsetMs: number;
  /** Idempotency keys of the test advances applied: each advances once. */
  advanceKeys: ReadonlySet<string>;
}

export type SubscriptionState = { status: 'absent' } | Subscription;

export const initialState = (): SubscriptionState => ({ status: 'absent' });

export const exists = (state: SubscriptionState): state is Subscription =>
  state.status !== 'absent';

/** The subscription's own clock at application time `now`. */
export const subscriptionNow = (subscription: Subscription, now: Date): Date =>
  new Date(now.getTime() + subscription.clockOffsetMs);

export const findInvoice = (subscription: Subscription, invoiceId: string): Invoice | undefined =>
  subscription.invoices.find((invoice) => invoice.invoiceId === invoiceId);

export function requireSubscription(state: SubscriptionState): Subscription {
  if (!exists(state)) throw notFound('subscription');
  return state;
}

export function requireInvoice(subscription: Subscription, invoiceId: string): Invoice {
  const invoice = findInvoice(subscription, invoiceId);
  if (!invoice) throw notFound('invoice');
  return invoice;
}

export const latestInvoice = (subscription: Subscription): Invoice =>
  subscription.invoices[subscription.invoices.length - 1];

export const isOver = (subscription: Subscription): boolean =>
  subscription.status === 'canceled' || subscription.status === 'completed';

/** The payment attempts a cancel must ask about: the current one of each open invoice. */
export const openPaymentAttempts = (subscription: Subscription): string[] =>
  subscription.invoices
    .filter((invoice) => invoice.status === 'open' && invoice.payment !== null)
    .map((invoice) => invoice.payment as string);

function withInvoice(
  subscription: Subscription,
  invoiceId: string,
  change: (invoice: Invoice) => Invoice,
): Subscription {
  return {
    ...subscription,
    invoices: subscription.invoices.map((invoice) =>
      invoice.invoiceId === invoiceId ? change(invoice) : invoice,
    ),
  };
}

export function evolve(state: SubscriptionState, event: SubscriptionEvent): SubscriptionState {
  if (event.type === 'SubscriptionCreated') {
    const { createdAt, ...data } = event.data;
    return {
      ...data,
      status: 'active',
      cyclesPaid: 0,
      cancelAtPeriodEnd: false,
      canceledAt: null,
      cancellationReason: null,
      completedAt: null,
      createdAt,
      invoices: [],
      clockOffsetMs: 0,
      advanceKeys: new Set(),
    };
  }
  if (!exists(state)) return state;
  switch (event.type) {
    case 'InvoiceCreated': {
      const data = event.data;
      return {
        ...state,
        invoices: [
          ...state.invoices,
          {
            invoiceId: data.invoiceId,
            periodIndex: data.periodIndex,
            periodStart: data.periodStart,
            periodEnd: data.periodEnd,
            amount: data.amount,
            status: 'open',
            payment: null,
            dueAt: data.dueAt,
            graceEndsAt: data.graceEndsAt,
            paidAt: null,
            remindersSent: 0,
            overdue: false,
            extraPayments: [],
            createdAt: data.createdAt,
          },
        ],
      };
    }
    case 'InvoiceReminderSent':
      return withInvoice(state, event.data.invoiceId, (invoice) => ({
        ...invoice,
        remindersSent: event.data.remindersSent,
      }));
    case 'InvoiceOverdue':
      return withInvoice(state, event.data.invoiceId, (invoice) => ({ ...invoice, overdue: true }));
    case 'SubscriptionPastDue':
      return { ...state, status: 'past_due' };
    case 'InvoiceUncollectible':
      return withInvoice(state, event.data.invoiceId, (invoice) => ({
        ...invoice,
        status: 'uncollectible',
      }));
    case 'SubscriptionCancelScheduled':
      return { ...state, cancelAtPeriodEnd: true };
    case 'SubscriptionCanceled':
      return {
        ...state,
        status: 'canceled',
        canceledAt: event.data.canceledAt,
        cancellationReason: event.data.reason,
      };
    case 'InvoiceVoided':
      return withInvoice(state, event.data.invoiceId, (invoice) => ({
        ...invoice,
        status: 'void',
      }));
    case 'InvoicePaymentStarted':
      return withInvoice(state, event.data.invoiceId, (invoice) => ({
        ...invoice,
        payment: event.data.paymentId,
      }));
    case 'InvoicePaymentFailed':
      return withInvoice(state, event.data.invoiceId, (invoice) =>
        invoice.payment === event.data.paymentId ? { ...invoice, payment: null } : invoice,
      );
    case 'InvoicePaid':
      return {
        ...withInvoice(state, event.data.invoiceId, (invoice) => ({
          ...invoice,
          status: 'paid',
          payment: event.data.paymentId,
          paidAt: event.data.paidAt,
        })),
        cyclesPaid: state.cyclesPaid + 1,
      };
    case 'InvoiceExtraPaymentReceived':
      return withInvoice(state, event.data.invoiceId, (invoice) => ({
        ...invoice,
        extraPayments: [...invoice.extraPayments, event.data.paymentId],
      }));
    case 'SubscriptionReturnedToActive':
      return { ...state, status: 'active' };
    case 'SubscriptionCompleted':
      return { ...state, status: 'completed', completedAt: event.data.completedAt };
    case 'TestClockAdvanced':
      return {
        ...state,
        clockOffsetMs: event.data.offsetMs,
        advanceKeys: new Set(state.advanceKeys).add(event.data.idempotencyKey),
      };
    default:
      return assertNever(event);
  }
}
