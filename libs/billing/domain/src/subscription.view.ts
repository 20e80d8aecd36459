import {
  livemode,
  type BillingInterval,
  type Currency,
  type InvoiceStatus,
  type SubscriptionStatus,
} from '@xaalis/kernel';
import { billingGoesOn, currentPeriodEnd } from './billing-schedule';
import type { SubscriptionCustomer } from './subscription.events';
import { latestInvoice, type Invoice, type Subscription } from './subscription.state';

/** What the views need from outside the stream: where the hosted invoice pages are served. */
export interface BillingLinks {
  hostedInvoiceBaseUrl: string;
}

/** Spec 2.4. */
export interface InvoiceObject {
  id: string;
  object: 'invoice';
  livemode: boolean;
  subscription: string;
  period_index: number;
  period_start: string;
  period_end: string;
  amount: number;
  currency: Currency;
  status: InvoiceStatus;
  payment: string | null;
  hosted_invoice_url: string;
  due_at: string;
  grace_ends_at: string;
  paid_at: string | null;
  reminders_sent: number;
  created_at: string;
}

/** Spec 2.3 (the cancel answer adds `pending_payment`, which is not the stream's to know). */
export interface SubscriptionObject {
  id: string;
  object: 'subscription';
  livemode: boolean;
  status: SubscriptionStatus;
  customer: SubscriptionCustomer;
  amount: number;
  currency: Currency;
  interval: BillingInterval;
  interval_count: number;
  billing_cycles: number | null;
  cycles_paid: number;
  current_period_start: string;
  current_period_end: string;
  next_invoice_at: string | null;
  cancel_at_period_end: boolean;
  canceled_at: string | null;
  completed_at: string | null;
  days_until_due: number;
  cancel_after_days: number;
  description: string | null;
  client_reference: string | null;
  metadata: Record<string, string>;
  latest_invoice: InvoiceObject;
  created_at: string;
}

/** The stable customer link (CONTRACT 7), payable until `grace_ends_at`. */
export const hostedInvoiceUrl = (invoiceId: string, links: BillingLinks): string =>
  `${links.hostedInvoiceBaseUrl}/invoices/${invoiceId}/pay`;

export function invoiceView(
  subscription: Subscription,
  invoice: Invoice,
  links: BillingLinks,
): InvoiceObject {
  return {
    id: invoice.invoiceId,
    object: 'invoice',
    livemode: livemode(subscription.mode),
    subscription: subscription.subscriptionId,
    period_index: invoice.periodIndex,
    period_start: invoice.periodStart,
    period_end: invoice.periodEnd,
    amount: invoice.amount,
    currency: subscription.currency,
    status: invoice.status,
    payment: invoice.payment,
    hosted_invoice_url: hostedInvoiceUrl(invoice.invoiceId, links),
    due_at: invoice.dueAt,
    grace_ends_at: invoice.graceEndsAt,
    paid_at: invoice.paidAt,
    reminders_sent: invoice.remindersSent,
    created_at: invoice.createdAt,
  };
}

/** `next_invoice_at` is null once nothing more will be billed (over, scheduled to end, all cycles). */
export function subscriptionView(
  subscription: Subscription,
  links: BillingLinks,
): SubscriptionObject {
  const latest = latestInvoice(subscription);
  return {
    id: subscription.subscriptionId,
    object: 'subscription',
    livemode: livemode(subscription.mode),
    status: subscription.status,
    customer: { ...subscription.customer },
    amount: subscription.amount,
    currency: subscription.currency,
    interval: subscription.interval,
    interval_count: subscription.intervalCount,
    billing_cycles: subscription.billingCycles,
    cycles_paid: subscription.cyclesPaid,
    current_period_start: latest.periodStart,
    current_period_end: latest.periodEnd,
    next_invoice_at: billingGoesOn(subscription)
      ? currentPeriodEnd(subscription).toISOString()
      : null,
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
    canceled_at: subscription.canceledAt,
    completed_at: subscription.completedAt,
    days_until_due: subscription.daysUntilDue,
    cancel_after_days: subscription.cancelAfterDays,
    description: subscription.description,
    client_reference: subscription.clientReference,
    metadata: { ...subscription.metadata },
    latest_invoice: invoiceView(subscription, latest, links),
    created_at: subscription.createdAt,
  };
}
