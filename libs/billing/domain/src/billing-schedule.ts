import { DAY_MS, periodStart } from './billing-period';
import { invoiceIdFor } from './invoice-id';
import type { InvoiceCreated, SubscriptionEvent } from './subscription.events';
import {
  evolve,
  isOver,
  latestInvoice,
  type Invoice,
  type Subscription,
} from './subscription.state';

/**
 * The billing clock (CONTRACT 7) as pure functions of the state: which instants are still to be
 * applied, and what happens at one. The state records what was applied (each invoice's reminder
 * count, its overdue flag and status, the invoices opened, the subscription's status), so every
 * effect is applied exactly once however often the scheduler asks.
 */

const REMINDER_EVERY_DAYS = 3;

type Terms = Pick<
  Subscription,
  | 'subscriptionId'
  | 'createdAt'
  | 'interval'
  | 'intervalCount'
  | 'amount'
  | 'currency'
  | 'daysUntilDue'
  | 'cancelAfterDays'
>;

/** The invoice of period `periodIndex`, opened at the period's start. */
export function invoiceOpened(terms: Terms, periodIndex: number): InvoiceCreated {
  const invoiceId = invoiceIdFor(terms.subscriptionId, periodIndex);
  const anchor = new Date(terms.createdAt);
  const start = periodStart(anchor, terms.interval, terms.intervalCount, periodIndex);
  const end = periodStart(anchor, terms.interval, terms.intervalCount, periodIndex + 1);
  const dueAt = start.getTime() + terms.daysUntilDue * DAY_MS;
  return {
    type: 'InvoiceCreated',
    data: {
      subscriptionId: terms.subscriptionId,
      invoiceId,
      periodIndex,
      periodStart: start.toISOString(),
      periodEnd: end.toISOString(),
      amount: terms.amount,
      currency: terms.currency,
      dueAt: new Date(dueAt).toISOString(),
      graceEndsAt: new Date(dueAt + terms.cancelAfterDays * DAY_MS).toISOString(),
      createdAt: start.toISOString(),
    },
  };
}

/**
 * One day before `due_at`, at `due_at`, then every 3 days in grace; only those strictly after the
 * invoice was opened (a 1-day invoice gets no reminder before its due date) and strictly before
 * its grace ends (then it is uncollectible, not reminded).
 */
export function reminderTimes(invoice: Invoice): number[] {
  const createdAt = Date.parse(invoice.createdAt);
  const dueAt = Date.parse(invoice.dueAt);
  const graceEndsAt = Date.parse(invoice.graceEndsAt);
  const times = [dueAt - DAY_MS, dueAt];
  for (
    let at = dueAt + REMINDER_EVERY_DAYS * DAY_MS;
    at < graceEndsAt;
    at += REMINDER_EVERY_DAYS * DAY_MS
  ) {
    times.push(at);
  }
  return times.filter((at) => at > createdAt && at < graceEndsAt);
}

const nextReminderAt = (invoice: Invoice): number | null =>
  reminderTimes(invoice)[invoice.remindersSent] ?? null;

/** Will another period be invoiced? */
export const billingGoesOn = (subscription: Subscription): boolean =>
  !isOver(subscription) &&
  !subscription.cancelAtPeriodEnd &&
  (subscription.billingCycles === null ||
    subscription.invoices.length < subscription.billingCycles);

/** The end of the latest period: the next one's start. */
export const currentPeriodEnd = (subscription: Subscription): Date =>
  periodStart(
    new Date(subscription.createdAt),
    subscription.interval,
    subscription.intervalCount,
    latestInvoice(subscription).periodIndex + 1,
  );

/** A period boundary still matters: it opens an invoice, or ends a scheduled cancel. */
const periodBoundaryPending = (subscription: Subscription): boolean =>
  billingGoesOn(subscription) || (subscription.cancelAtPeriodEnd && !isOver(subscription));

function pendingTimes(invoice: Invoice): number[] {
  if (invoice.status !== 'open') return [];
  const times = [Date.parse(invoice.graceEndsAt)];
  if (!invoice.overdue) times.push(Date.parse(invoice.dueAt));
  const reminder = nextReminderAt(invoice);
  if (reminder !== null) times.push(reminder);
  return times;
}

/**
 * The earliest billing event not yet applied, on the subscription's clock: the next reminder,
 * `due_at` or `grace_ends_at` of an open invoice, the next period's start while billing goes on,
 * the period's end under a scheduled cancel. Null: nothing more will happen by itself.
 */
export function nextBillingEventAt(subscription: Subscription): Date | null {
  const times = subscription.invoices.flatMap(pendingTimes);
  if (periodBoundaryPending(subscription)) times.push(currentPeriodEnd(subscription).getTime());
  return times.length === 0 ? null : new Date(Math.min(...times));
}

/** When the scheduler should send `Tick`, on the application clock. */
export function nextTickAt(subscription: Subscription): Date | null {
  const at = nextBillingEventAt(subscription);
  return at === null ? null : new Date(at.getTime() - subscription.clockOffsetMs);
}

/**
 * Every effect scheduled at instant `at`, in order: each open invoice's reminder, overdue and
 * grace end, then the period boundary. Decided on the state as it evolves, so a grace end that
 * cancels the subscription at the very instant a period starts opens no invoice, and a second
 * invoice overdue at once does not make it past due twice.
 */
export function billingEffectsAt(subscription: Subscription, at: Date): SubscriptionEvent[] {
  const events: SubscriptionEvent[] = [];
  let current = subscription;
  const emit = (event: SubscriptionEvent) => {
    events.push(event);
    current = evolve(current, event) as Subscription;
  };
  const { subscriptionId } = subscription;
  const when = at.getTime();
  const stamp = at.toISOString();
  for (const invoice of subscription.invoices) {
    if (invoice.status !== 'open') continue;
    const { invoiceId } = invoice;
    if (nextReminderAt(invoice) === when) {
      emit({
        type: 'InvoiceReminderSent',
        data: {
          subscriptionId,
          invoiceId,
          remindersSent: invoice.remindersSent + 1,
          sentAt: stamp,
        },
      });
    }
    if (!invoice.overdue && Date.parse(invoice.dueAt) === when) {
      emit({ type: 'InvoiceOverdue', data: { subscriptionId, invoiceId, overdueAt: stamp } });
      if (current.status === 'active') {
        emit({
          type: 'SubscriptionPastDue',
          data: { subscriptionId, invoiceId, pastDueAt: stamp },
        });
      }
    }
    if (Date.parse(invoice.graceEndsAt) === when) {
      emit({ type: 'InvoiceUncollectible', data: { subscriptionId, invoiceId, markedAt: stamp } });
      if (!isOver(current)) {
        emit({
          type: 'SubscriptionCanceled',
          data: { subscriptionId, reason: 'uncollectible', canceledAt: stamp },
        });
      }
    }
  }
  if (periodBoundaryPending(current) && currentPeriodEnd(current).getTime() === when) {
    emit(
      current.cancelAtPeriodEnd
        ? {
            type: 'SubscriptionCanceled',
            data: { subscriptionId, reason: 'period_end', canceledAt: stamp },
          }
        : invoiceOpened(current, latestInvoice(current).periodIndex + 1),
    );
  }
  return events;
}
