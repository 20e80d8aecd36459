import {
  billingEffectsAt,
  billingGoesOn,
  nextBillingEventAt,
  nextTickAt,
  reminderTimes,
} from './billing-schedule';
import {
  cancelScheduled,
  canceled,
  clockAdvanced,
  day,
  DUE_AT,
  GRACE_ENDS_AT,
  invoiceCreated,
  invoiceOverdue,
  invoicePaid,
  invoiceUncollectible,
  newPastDueSubscription,
  newSubscription,
  pastDue,
  reminderSent,
  SECOND_PERIOD_START,
  subscriptionCreated,
  subscriptionOf,
  T0,
} from './subscription.fixtures';
import { latestInvoice } from './subscription.state';

const times = (dates: number[]) => dates.map((at) => new Date(at).toISOString());

describe('billing schedule (CONTRACT 7)', () => {
  describe('reminderTimes', () => {
    it('one day before due_at, at due_at, then every 3 days strictly inside grace', () => {
      const invoice = latestInvoice(subscriptionOf(newSubscription()));
      expect(times(reminderTimes(invoice))).toEqual(
        [day(2), DUE_AT, day(6), day(9), day(12), day(15)].map((d) => d.toISOString()),
      );
    });

    it('1 day until due: none before due_at (that would be the invoice creation itself)', () => {
      const invoice = latestInvoice(
        subscriptionOf([
          subscriptionCreated({ daysUntilDue: 1, cancelAfterDays: 7 }),
          invoiceCreated({ dueAt: day(1).toISOString(), graceEndsAt: day(8).toISOString() }),
        ]),
      );
      expect(times(reminderTimes(invoice))).toEqual(
        [day(1), day(4), day(7)].map((d) => d.toISOString()),
      );
    });

    it('grace of 3 days: none at grace end, which is uncollectible instead', () => {
      const invoice = latestInvoice(
        subscriptionOf([
          subscriptionCreated({ cancelAfterDays: 3 }),
          invoiceCreated({ graceEndsAt: day(6).toISOString() }),
        ]),
      );
      expect(times(reminderTimes(invoice))).toEqual([day(2), DUE_AT].map((d) => d.toISOString()));
    });
  });

  describe('nextBillingEventAt', () => {
    it.each([
      ['a new invoice: its first reminder', newSubscription(), day(2)],
      ['after the first reminder: due_at', [...newSubscription(), reminderSent(1, day(2))], DUE_AT],
      ['past due: the next reminder', newPastDueSubscription(), day(6)],
      [
        'all reminders sent: grace end',
        [...newPastDueSubscription(), ...[6, 9, 12, 15].map((n, i) => reminderSent(i + 3, day(n)))],
        GRACE_ENDS_AT,
      ],
      ['paid: the next period start', [...newSubscription(), invoicePaid()], SECOND_PERIOD_START],
      [
        'paid, cancel scheduled: the period end',
        [...newSubscription(), invoicePaid(), cancelScheduled()],
        SECOND_PERIOD_START,
      ],
    ])('%s', (_, history, expected) => {
      expect(nextBillingEventAt(subscriptionOf(history))).toEqual(expected);
    });

    it('nothing pending: null (canceled, its invoice uncollectible)', () => {
      const over = [
        ...newPastDueSubscription(),
        invoiceUncollectible(),
        canceled('uncollectible', GRACE_ENDS_AT),
      ];
      expect(nextBillingEventAt(subscriptionOf(over))).toBeNull();
      expect(billingGoesOn(subscriptionOf(over))).toBe(false);
    });

    it('nextTickAt: the same instant on the application clock, less the test clock offset', () => {
      const advanced = [...newSubscription(), clockAdvanced('k1', 2 * 86_400_000, day(2))];
      expect(nextTickAt(subscriptionOf(advanced))).toEqual(T0);
      expect(nextTickAt(subscriptionOf(newSubscription()))).toEqual(day(2));
    });
  });

  describe('billingEffectsAt', () => {
    it('everything due at one instant, in order: reminder, overdue, past due', () => {
      const history = [...newSubscription(), reminderSent(1, day(2))];
      expect(billingEffectsAt(subscriptionOf(history), DUE_AT)).toEqual([
        reminderSent(2, DUE_AT),
        invoiceOverdue(),
        pastDue(),
      ]);
    });

    it('an instant with nothing scheduled: nothing', () => {
      expect(billingEffectsAt(subscriptionOf(newSubscription()), day(1))).toEqual([]);
    });
  });
});
