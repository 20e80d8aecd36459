import { givenWhenThen } from '@xaalis/kernel/testing';
import { nextBillingEventAt } from './billing-schedule';
import { invoiceIdFor } from './invoice-id';
import type { SubscriptionCommand } from './subscription.commands';
import { decide, subscriptionDecider } from './subscription.decide';
import type { SubscriptionEvent } from './subscription.events';
import {
  canceled,
  cancelScheduled,
  cancelSubscription,
  clockAdvanced,
  completed,
  createSubscription,
  DAY,
  day,
  DUE_AT,
  GRACE_ENDS_AT,
  INVOICE_ID,
  invoiceCreated,
  invoiceOverdue,
  invoicePaid,
  invoiceUncollectible,
  newPastDueSubscription,
  newSubscription,
  OTHER_PAYMENT_ID,
  pastDue,
  PAYMENT_ID,
  recordInvoicePaid,
  reminderSent,
  returnedToActive,
  SECOND_INVOICE_ID,
  SECOND_PERIOD_START,
  secondInvoiceCreated,
  startInvoicePayment,
  stateOf,
  subscriptionCreated,
  SUBSCRIPTION_ID,
  subscriptionOf,
  tick,
} from './subscription.fixtures';

const { given } = givenWhenThen(subscriptionDecider);

/** A successful decision folded into the history, for the next step. */
const after = (history: SubscriptionEvent[], command: SubscriptionCommand): SubscriptionEvent[] => [
  ...history,
  ...decide(command, stateOf(history)),
];

/** The scheduler at application time `now`: Tick while anything is due. Returns the new events. */
function tickUntil(history: SubscriptionEvent[], now: Date): SubscriptionEvent[] {
  let events = history;
  for (;;) {
    const decided = decide(tick(now), stateOf(events));
    if (decided.length === 0) return events.slice(history.length);
    events = [...events, ...decided];
  }
}

const iso = (date: Date) => date.toISOString();

describe('the billing clock, driven by Tick (CONTRACT 7)', () => {
  it('nothing due yet: no events', () => {
    given(newSubscription())
      .when(tick(day(1.9)))
      .then([]);
  });

  it('one billing instant per Tick: the first due, even when later ones are due too', () => {
    given(newSubscription())
      .when(tick(day(40)))
      .then([reminderSent(1, day(2))]);
  });

  it('a Tick repeated at the same instant applies nothing twice', () => {
    const atDue = [...newSubscription(), reminderSent(1, day(2))];
    given(atDue)
      .when(tick(DUE_AT))
      .then([reminderSent(2, DUE_AT), invoiceOverdue(), pastDue()]);
    given(after(atDue, tick(DUE_AT)))
      .when(tick(DUE_AT))
      .then([]);
  });

  it('an invoice left unpaid: reminders, overdue and past due, then uncollectible and canceled, and no invoice after', () => {
    expect(tickUntil(newSubscription(), day(60))).toEqual([
      reminderSent(1, day(2)),
      reminderSent(2, DUE_AT),
      invoiceOverdue(),
      pastDue(),
      reminderSent(3, day(6)),
      reminderSent(4, day(9)),
      reminderSent(5, day(12)),
      reminderSent(6, day(15)),
      invoiceUncollectible(),
      canceled('uncollectible', GRACE_ENDS_AT),
    ]);
    const over = [...newSubscription(), ...tickUntil(newSubscription(), day(60))];
    expect(nextBillingEventAt(subscriptionOf(over))).toBeNull();
    expect(subscriptionOf(over).invoices).toHaveLength(1);
  });

  it('overdue, past due, paid in grace: active again, no more reminders, the next period billed', () => {
    const paidInGrace = after(newPastDueSubscription(), recordInvoicePaid(PAYMENT_ID, day(5)));
    expect(paidInGrace.slice(-2)).toEqual([
      invoicePaid(PAYMENT_ID, day(5)),
      returnedToActive(day(5)),
    ]);
    expect(subscriptionOf(paidInGrace).status).toBe('active');
    expect(tickUntil(paidInGrace, SECOND_PERIOD_START)).toEqual([
      invoiceCreated({ ...secondInvoiceCreated().data, invoiceId: SECOND_INVOICE_ID }),
    ]);
  });

  it('a test subscription ticks on its own clock: offset 1 day, application day 2 is its due_at', () => {
    const ahead = [...newSubscription(), clockAdvanced('k', DAY, day(2)), reminderSent(1, day(2))];
    given(ahead)
      .when(tick(day(2)))
      .then([reminderSent(2, DUE_AT), invoiceOverdue(), pastDue()]);
  });

  it('anchored on 31 January, monthly: 28 February, then 31 March again', () => {
    const anchor = new Date('2026-01-31T08:30:00.000Z');
    let history = after([], createSubscription({ now: anchor }));
    // Each invoice paid as it opens, so the next period start is all that happens.
    for (const index of [0, 1, 2]) {
      const latest = subscriptionOf(history).invoices[index];
      history = after(
        history,
        recordInvoicePaid(`pay_${index}`, new Date(latest.createdAt), latest.invoiceId),
      );
      history = [...history, ...tickUntil(history, new Date(latest.periodEnd))];
    }
    const periods = subscriptionOf(history).invoices.map((invoice) => [
      invoice.periodStart,
      invoice.periodEnd,
      invoice.dueAt,
    ]);
    expect(periods).toEqual([
      ['2026-01-31T08:30:00.000Z', '2026-02-28T08:30:00.000Z', '2026-02-03T08:30:00.000Z'],
      ['2026-02-28T08:30:00.000Z', '2026-03-31T08:30:00.000Z', '2026-03-03T08:30:00.000Z'],
      ['2026-03-31T08:30:00.000Z', '2026-04-30T08:30:00.000Z', '2026-04-03T08:30:00.000Z'],
      ['2026-04-30T08:30:00.000Z', '2026-05-31T08:30:00.000Z', '2026-05-03T08:30:00.000Z'],
    ]);
  });

  it('daily, 3 days to pay: periods overlap open invoices, and one instant holds several effects', () => {
    const daily = [
      subscriptionCreated({ interval: 'day' }),
      invoiceCreated({ periodEnd: iso(day(1)) }),
    ];
    const opened = (index: number) =>
      invoiceCreated({
        invoiceId: invoiceIdFor(SUBSCRIPTION_ID, index),
        periodIndex: index,
        periodStart: iso(day(index)),
        periodEnd: iso(day(index + 1)),
        dueAt: iso(day(index + 3)),
        graceEndsAt: iso(day(index + 17)),
        createdAt: iso(day(index)),
      });
    expect(tickUntil(daily, day(3))).toEqual([
      opened(1),
      reminderSent(1, day(2)),
      opened(2),
      reminderSent(2, DUE_AT),
      invoiceOverdue(),
      pastDue(),
      reminderSent(1, day(3), SECOND_INVOICE_ID),
      opened(3),
    ]);
    expect(subscriptionOf([...daily, ...tickUntil(daily, day(3))]).invoices).toHaveLength(4);
  });

  it('daily with billing_cycles 2, driven by Tick and paid: completed, then nothing more', () => {
    const terms = { interval: 'day' as const, billingCycles: 2 };
    let history = after([], createSubscription(terms));
    history = after(history, recordInvoicePaid(PAYMENT_ID, day(0.5), INVOICE_ID));
    expect(tickUntil(history, day(1))).toHaveLength(1);
    history = [...history, ...tickUntil(history, day(1))];
    history = after(history, recordInvoicePaid(OTHER_PAYMENT_ID, day(1.5), SECOND_INVOICE_ID));
    expect(history.slice(-2)).toEqual([
      invoicePaid(OTHER_PAYMENT_ID, day(1.5), SECOND_INVOICE_ID),
      completed(day(1.5)),
    ]);
    const done = subscriptionOf(history);
    expect(done).toMatchObject({ status: 'completed', cyclesPaid: 2, completedAt: iso(day(1.5)) });
    expect(done.invoices.map((invoice) => invoice.status)).toEqual(['paid', 'paid']);
    expect(nextBillingEventAt(done)).toBeNull();
    expect(tickUntil(history, day(90))).toEqual([]);
  });

  it('billing_cycles reached: no invoice after the last one, even unpaid', () => {
    const twoCycles = [
      subscriptionCreated({ billingCycles: 2 }),
      invoiceCreated(),
      invoicePaid(),
      secondInvoiceCreated(),
    ];
    const next = nextBillingEventAt(subscriptionOf(twoCycles));
    expect(next).toEqual(new Date('2026-12-24T10:00:00.000Z'));
  });

  describe('cancel at period end', () => {
    it('paid: canceled at the period end, with no new invoice', () => {
      const scheduled = after([...newSubscription(), invoicePaid()], cancelSubscription(true));
      expect(scheduled.at(-1)).toEqual(cancelScheduled(day(1)));
      expect(tickUntil(scheduled, day(90))).toEqual([canceled('period_end', SECOND_PERIOD_START)]);
    });

    it('unpaid at the end of a weekly period: canceled, its invoice still payable through grace', () => {
      const weekly = [
        subscriptionCreated({ interval: 'week' }),
        invoiceCreated({ periodEnd: iso(day(7)) }),
        cancelScheduled(day(1)),
      ];
      expect(tickUntil(weekly, day(7))).toEqual([
        reminderSent(1, day(2)),
        reminderSent(2, DUE_AT),
        invoiceOverdue(),
        pastDue(),
        reminderSent(3, day(6)),
        canceled('period_end', day(7)),
      ]);
      const ended = [...weekly, ...tickUntil(weekly, day(7))];
      const paying = after(ended, startInvoicePayment(PAYMENT_ID, day(8)));
      given(paying)
        .when(recordInvoicePaid(PAYMENT_ID, day(9)))
        .then([invoicePaid(PAYMENT_ID, day(9))]);
      expect(tickUntil(after(paying, recordInvoicePaid(PAYMENT_ID, day(9))), day(90))).toEqual([]);
    });
  });

  it('cancel now: the unstarted invoice is voided, the one with the provider stays payable', () => {
    const daily = [
      subscriptionCreated({ interval: 'day' }),
      invoiceCreated({ periodEnd: iso(day(1)) }),
    ];
    let history = [...daily, ...tickUntil(daily, day(1))];
    history = after(history, startInvoicePayment(PAYMENT_ID, day(1.2), INVOICE_ID));
    history = after(history, startInvoicePayment(OTHER_PAYMENT_ID, day(1.2), SECOND_INVOICE_ID));
    const checkouts = [
      { paymentId: PAYMENT_ID, checkoutStarted: true },
      { paymentId: OTHER_PAYMENT_ID, checkoutStarted: false },
    ];
    history = after(history, cancelSubscription(false, checkouts, day(1.5)));
    expect(subscriptionOf(history).invoices.map((invoice) => invoice.status)).toEqual([
      'open',
      'void',
    ]);
    given(history)
      .when(recordInvoicePaid(PAYMENT_ID, day(1.6)))
      .then([invoicePaid(PAYMENT_ID, day(1.6))]);
    expect(subscriptionOf(history)).toMatchObject({
      status: 'canceled',
      canceledAt: iso(day(1.5)),
    });
  });
});
