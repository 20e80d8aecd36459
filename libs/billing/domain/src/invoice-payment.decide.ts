import { invalidState } from '@xaalis/kernel';
import type {
  RecordInvoicePaid,
  RecordInvoicePaymentFailed,
  StartInvoicePayment,
} from './subscription.commands';
import type { InvoicePaid, SubscriptionEvent } from './subscription.events';
import {
  evolve,
  isOver,
  requireInvoice,
  requireSubscription,
  subscriptionNow,
  type Subscription,
  type SubscriptionState,
} from './subscription.state';

/**
 * The invoice's side of a payment: attempts started from the hosted invoice page, and what the
 * payments context reports of them. Decided on the subscription's stream like the rest.
 */

/**
 * Only an open invoice within its grace takes a payment, and one attempt at a time: while the
 * current attempt is not confirmed failed the caller continues with it (its id is in the error).
 */
export function startInvoicePayment(
  { data }: StartInvoicePayment,
  state: SubscriptionState,
): SubscriptionEvent[] {
  const subscription = requireSubscription(state);
  const invoice = requireInvoice(subscription, data.invoiceId);
  if (invoice.payment === data.paymentId) return [];
  if (invoice.status !== 'open') {
    throw invalidState(`The invoice is ${invoice.status}.`, { status: invoice.status });
  }
  const now = subscriptionNow(subscription, data.now);
  if (now.getTime() >= Date.parse(invoice.graceEndsAt)) {
    throw invalidState('The invoice is past its grace period.', {
      grace_ends_at: invoice.graceEndsAt,
    });
  }
  if (invoice.payment !== null) {
    throw invalidState('The invoice already has a payment in progress: continue with it.', {
      payment: invoice.payment,
    });
  }
  return [
    {
      type: 'InvoicePaymentStarted',
      data: {
        subscriptionId: subscription.subscriptionId,
        invoiceId: invoice.invoiceId,
        paymentId: data.paymentId,
        startedAt: now.toISOString(),
      },
    } satisfies SubscriptionEvent,
  ];
}

/**
 * Only the current attempt of an open invoice is cleared; a stale or repeated failure is []. An
 * invoice that a cancel now left open only for the payment then in flight (spec 3.3) is voided
 * when that payment fails: nothing is billed after a cancel now.
 */
export function recordInvoicePaymentFailed(
  { data }: RecordInvoicePaymentFailed,
  state: SubscriptionState,
): SubscriptionEvent[] {
  const subscription = requireSubscription(state);
  const invoice = requireInvoice(subscription, data.invoiceId);
  if (invoice.status !== 'open' || invoice.payment !== data.paymentId) return [];
  const ids = { subscriptionId: subscription.subscriptionId, invoiceId: invoice.invoiceId };
  const at = subscriptionNow(subscription, data.now).toISOString();
  const failed: SubscriptionEvent = {
    type: 'InvoicePaymentFailed',
    data: { ...ids, paymentId: data.paymentId, failedAt: at },
  };
  if (subscription.cancellationReason !== 'requested') return [failed];
  return [failed, { type: 'InvoiceVoided', data: { ...ids, voidedAt: at } }];
}

/**
 * A succeeded payment is money that moved, so it is always recorded, whatever the invoice's state
 * or the payment's rank among its attempts:
 * - open, void or uncollectible: the invoice becomes `paid` and counts in `cycles_paid`. A void
 *   invoice is paid by a payment that raced the cancel; an uncollectible one by a payment that
 *   settled after grace. Neither brings a canceled subscription back.
 * - already paid by another payment: `InvoiceExtraPaymentReceived`, for the merchant to refund;
 *   it pays nothing more.
 * - the same payment again (a duplicate delivery): nothing.
 * Then a past-due subscription with no other overdue open invoice is active again, and the last
 * of `billing_cycles` paid completes it.
 */
export function recordInvoicePaid(
  { data }: RecordInvoicePaid,
  state: SubscriptionState,
): SubscriptionEvent[] {
  const subscription = requireSubscription(state);
  const invoice = requireInvoice(subscription, data.invoiceId);
  const { subscriptionId } = subscription;
  const { invoiceId } = invoice;
  const at = subscriptionNow(subscription, data.paidAt).toISOString();
  if (invoice.status === 'paid') {
    if (invoice.payment === data.paymentId || invoice.extraPayments.includes(data.paymentId)) {
      return [];
    }
    return [
      {
        type: 'InvoiceExtraPaymentReceived',
        data: { subscriptionId, invoiceId, paymentId: data.paymentId, receivedAt: at },
      } satisfies SubscriptionEvent,
    ];
  }
  const paid: InvoicePaid = {
    type: 'InvoicePaid',
    data: { subscriptionId, invoiceId, paymentId: data.paymentId, paidAt: at },
  };
  const after = evolve(subscription, paid) as Subscription;
  if (isOver(after)) return [paid];
  if (after.billingCycles !== null && after.cyclesPaid >= after.billingCycles) {
    return [paid, { type: 'SubscriptionCompleted', data: { subscriptionId, completedAt: at } }];
  }
  const stillOverdue = after.invoices.some((other) => other.status === 'open' && other.overdue);
  if (after.status === 'past_due' && !stillOverdue) {
    return [
      paid,
      { type: 'SubscriptionReturnedToActive', data: { subscriptionId, returnedAt: at } },
    ];
  }
  return [paid];
}
