import type { BillingInterval, Mode } from '@xaalis/kernel';
import type { SubscriptionCustomer } from './subscription.events';

/**
 * Ids (the subscription's, and the invoice a command may open) and `now` are made before the
 * decision and come in with the command, so `decide` stays pure and replayable. `now` is the
 * application clock; the decider adds a test subscription's clock offset itself.
 */
export type CreateSubscription = {
  type: 'CreateSubscription';
  data: {
    subscriptionId: string;
    merchantId: string;
    /** Shown on the hosted invoice page and to the providers with each payment of an invoice. */
    merchantName: string;
    mode: Mode;
    customer: SubscriptionCustomer;
    amount: number;
    /** Omitted is XOF, the only currency. */
    currency?: string | null;
    interval: BillingInterval;
    /** Omitted: the defaults of spec 4.2 (1, 3 and 14). */
    intervalCount?: number;
    billingCycles?: number | null;
    daysUntilDue?: number;
    cancelAfterDays?: number;
    description: string | null;
    clientReference: string | null;
    metadata: Record<string, string>;
    now: Date;
  };
};

/**
 * The billing scheduler: applies every effect of the one billing instant that is due, if any.
 * The caller repeats while `nextTickAt` is not after its clock.
 */
export type Tick = {
  type: 'Tick';
  data: { now: Date };
};

/** `POST .../test_advance` (spec 4.2): test mode only. */
export type AdvanceTestClock = {
  type: 'AdvanceTestClock';
  data: { idempotencyKey: string; now: Date };
};

/**
 * What the payments context says of an open invoice's current payment attempt: has the customer
 * reached the provider's checkout with it? (spec 3.3: such a payment may still settle.)
 */
export interface PaymentCheckout {
  paymentId: string;
  checkoutStarted: boolean;
}

/**
 * `pendingPayments`: the caller's word on the current attempt of each open invoice (see
 * `openPaymentAttempts`). An attempt it does not mention counts as not started.
 */
export type CancelSubscription = {
  type: 'CancelSubscription';
  data: { atPeriodEnd: boolean; pendingPayments: PaymentCheckout[]; now: Date };
};

/** The hosted invoice page started a payment for the invoice. */
export type StartInvoicePayment = {
  type: 'StartInvoicePayment';
  data: { invoiceId: string; paymentId: string; now: Date };
};

export type RecordInvoicePaymentFailed = {
  type: 'RecordInvoicePaymentFailed';
  data: { invoiceId: string; paymentId: string; now: Date };
};

/** `paidAt`: when the payment succeeded, on the application clock. */
export type RecordInvoicePaid = {
  type: 'RecordInvoicePaid';
  data: { invoiceId: string; paymentId: string; paidAt: Date };
};

export type SubscriptionCommand =
  | CreateSubscription
  | Tick
  | AdvanceTestClock
  | CancelSubscription
  | StartInvoicePayment
  | RecordInvoicePaymentFailed
  | RecordInvoicePaid;
