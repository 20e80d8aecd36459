import {
  SUBSCRIPTION_EVENT_TYPES,
  subscriptionStream,
  type SubscriptionEventType,
} from './subscription.events';
import {
  cancelScheduled,
  canceled,
  clockAdvanced,
  completed,
  DAY,
  day,
  extraPaymentReceived,
  GRACE_ENDS_AT,
  INVOICE_ID,
  invoiceCreated,
  invoiceOverdue,
  invoicePaid,
  invoiceUncollectible,
  invoiceVoided,
  newPastDueSubscription,
  newSubscription,
  OTHER_PAYMENT_ID,
  PAYMENT_ID,
  paymentFailed,
  paymentStarted,
  reminderSent,
  returnedToActive,
  stateOf,
  SUBSCRIPTION_ID,
  subscriptionCreated,
  subscriptionOf,
  T0,
} from './subscription.fixtures';
import { exists, findInvoice, openPaymentAttempts, subscriptionNow } from './subscription.state';

const invoiceAfter = (...events: Parameters<typeof subscriptionOf>[0]) =>
  findInvoice(subscriptionOf([...newSubscription(), ...events]), INVOICE_ID);

describe('subscription state: one case per event type', () => {
  it('lists every event type once; streams are subscription-<id>', () => {
    const ALL: Record<SubscriptionEventType, true> = {
      SubscriptionCreated: true,
      InvoiceCreated: true,
      InvoiceReminderSent: true,
      InvoiceOverdue: true,
      SubscriptionPastDue: true,
      InvoiceUncollectible: true,
      SubscriptionCancelScheduled: true,
      SubscriptionCanceled: true,
      InvoiceVoided: true,
      InvoicePaymentStarted: true,
      InvoicePaymentFailed: true,
      InvoicePaid: true,
      InvoiceExtraPaymentReceived: true,
      SubscriptionReturnedToActive: true,
      SubscriptionCompleted: true,
      TestClockAdvanced: true,
    };
    expect([...SUBSCRIPTION_EVENT_TYPES].sort()).toEqual(Object.keys(ALL).sort());
    expect(subscriptionStream(SUBSCRIPTION_ID)).toBe(`subscription-${SUBSCRIPTION_ID}`);
  });

  it('nothing before SubscriptionCreated', () => {
    expect(exists(stateOf([]))).toBe(false);
    expect(exists(stateOf([invoiceCreated()]))).toBe(false);
  });

  it('SubscriptionCreated: active, nothing paid, no invoice yet, no clock offset', () => {
    expect(subscriptionOf([subscriptionCreated()])).toMatchObject({
      subscriptionId: SUBSCRIPTION_ID,
      status: 'active',
      cyclesPaid: 0,
      cancelAtPeriodEnd: false,
      canceledAt: null,
      cancellationReason: null,
      completedAt: null,
      createdAt: T0.toISOString(),
      invoices: [],
      clockOffsetMs: 0,
    });
  });

  it('InvoiceCreated: an open invoice with no attempt, no reminder, not overdue', () => {
    expect(invoiceAfter()).toEqual({
      invoiceId: INVOICE_ID,
      periodIndex: 0,
      periodStart: T0.toISOString(),
      periodEnd: '2026-12-22T10:00:00.000Z',
      amount: 5_000,
      status: 'open',
      payment: null,
      dueAt: day(3).toISOString(),
      graceEndsAt: day(17).toISOString(),
      paidAt: null,
      remindersSent: 0,
      overdue: false,
      extraPayments: [],
      createdAt: T0.toISOString(),
    });
  });

  it('InvoiceReminderSent: the count it carries', () => {
    expect(invoiceAfter(reminderSent(1, day(2)), reminderSent(2, day(3)))?.remindersSent).toBe(2);
  });

  it('InvoiceOverdue and SubscriptionPastDue', () => {
    const pastDue = subscriptionOf(newPastDueSubscription());
    expect(pastDue.status).toBe('past_due');
    expect(pastDue.invoices[0].overdue).toBe(true);
    expect(pastDue.invoices[0].status).toBe('open');
  });

  it('InvoiceUncollectible and SubscriptionCanceled', () => {
    const lost = subscriptionOf([
      ...newPastDueSubscription(),
      invoiceUncollectible(),
      canceled('uncollectible', GRACE_ENDS_AT),
    ]);
    expect(lost).toMatchObject({
      status: 'canceled',
      canceledAt: GRACE_ENDS_AT.toISOString(),
      cancellationReason: 'uncollectible',
    });
    expect(lost.invoices[0].status).toBe('uncollectible');
  });

  it('SubscriptionCancelScheduled: cancel_at_period_end, still active', () => {
    expect(subscriptionOf([...newSubscription(), cancelScheduled()])).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
    });
  });

  it('InvoiceVoided', () => {
    expect(invoiceAfter(canceled('requested', day(1)), invoiceVoided())?.status).toBe('void');
  });

  it('InvoicePaymentStarted and InvoicePaymentFailed: the current attempt, then none', () => {
    expect(invoiceAfter(paymentStarted())?.payment).toBe(PAYMENT_ID);
    expect(invoiceAfter(paymentStarted(), paymentFailed())?.payment).toBeNull();
    expect(openPaymentAttempts(subscriptionOf([...newSubscription(), paymentStarted()]))).toEqual([
      PAYMENT_ID,
    ]);
  });

  it('InvoicePaid: paid by that payment, at that time; cycles_paid + 1', () => {
    const paid = subscriptionOf([...newSubscription(), paymentStarted(), invoicePaid()]);
    expect(paid.cyclesPaid).toBe(1);
    expect(paid.invoices[0]).toMatchObject({
      status: 'paid',
      payment: PAYMENT_ID,
      paidAt: day(2).toISOString(),
    });
    expect(openPaymentAttempts(paid)).toEqual([]);
  });

  it('InvoiceExtraPaymentReceived: kept aside, the invoice unchanged', () => {
    const invoice = invoiceAfter(invoicePaid(), extraPaymentReceived());
    expect(invoice).toMatchObject({
      status: 'paid',
      payment: PAYMENT_ID,
      extraPayments: [OTHER_PAYMENT_ID],
    });
  });

  it('SubscriptionReturnedToActive', () => {
    const back = [...newPastDueSubscription(), invoicePaid(), returnedToActive(day(4))];
    expect(subscriptionOf(back).status).toBe('active');
  });

  it('SubscriptionCompleted', () => {
    expect(subscriptionOf([...newSubscription(), completed(day(2))])).toMatchObject({
      status: 'completed',
      completedAt: day(2).toISOString(),
    });
  });

  it('TestClockAdvanced: the offset in total, and the key spent', () => {
    const advanced = subscriptionOf([
      ...newSubscription(),
      clockAdvanced('k1', 2 * DAY, day(2)),
      clockAdvanced('k2', 3 * DAY, day(3)),
    ]);
    expect(advanced.clockOffsetMs).toBe(3 * DAY);
    expect([...advanced.advanceKeys]).toEqual(['k1', 'k2']);
    expect(subscriptionNow(advanced, T0)).toEqual(day(3));
  });

  it('folding never mutates an earlier state', () => {
    const before = subscriptionOf(newSubscription());
    subscriptionOf([...newSubscription(), invoiceOverdue(), clockAdvanced('k', DAY, day(1))]);
    expect(before.invoices[0].overdue).toBe(false);
    expect(before.advanceKeys.size).toBe(0);
  });
});
