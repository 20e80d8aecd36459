import { givenWhenThen } from '@xaalis/kernel/testing';
import { subscriptionDecider } from './subscription.decide';
import {
  advanceTestClock,
  cancelScheduled,
  canceled,
  cancelSubscription,
  clockAdvanced,
  completed,
  createSubscription,
  DAY,
  day,
  DUE_AT,
  GRACE_ENDS_AT,
  invoiceCreated,
  invoiceOverdue,
  invoicePaid,
  invoiceUncollectible,
  invoiceVoided,
  newLiveSubscription,
  newPastDueSubscription,
  newSubscription,
  OTHER_PAYMENT_ID,
  pastDue,
  PAYMENT_ID,
  paymentStarted,
  reminderSent,
  SECOND_INVOICE_ID,
  secondInvoiceCreated,
  subscriptionCreated,
} from './subscription.fixtures';

const { given } = givenWhenThen(subscriptionDecider);

describe('subscription decider', () => {
  describe('CreateSubscription (spec 4.2, 8)', () => {
    it('creates an active subscription and opens period 0 at creation, with the defaults', () => {
      given([]).when(createSubscription()).then([subscriptionCreated(), invoiceCreated()]);
    });

    it('takes every term it is given: a fortnightly plan of 6 cycles, 5 days to pay, 10 of grace', () => {
      given([])
        .when(
          createSubscription({
            interval: 'week',
            intervalCount: 2,
            billingCycles: 6,
            daysUntilDue: 5,
            cancelAfterDays: 10,
            customer: { phone: '+221781112233', name: 'Moussa Fall', email: null },
            currency: 'XOF',
          }),
        )
        .then([
          subscriptionCreated({
            interval: 'week',
            intervalCount: 2,
            billingCycles: 6,
            daysUntilDue: 5,
            cancelAfterDays: 10,
            customer: { phone: '+221781112233', name: 'Moussa Fall', email: null },
          }),
          invoiceCreated({
            periodEnd: day(14).toISOString(),
            dueAt: day(5).toISOString(),
            graceEndsAt: day(15).toISOString(),
          }),
        ]);
    });

    it('a retry of the create that made it decides nothing', () => {
      given(newSubscription())
        .when(createSubscription({ amount: 999 }))
        .then([]);
    });

    it.each<[string, Parameters<typeof createSubscription>[0]]>([
      ['amount 100', { amount: 100 }],
      ['amount 100,000,000', { amount: 100_000_000 }],
      ['interval_count 12', { intervalCount: 12 }],
      ['billing_cycles 2', { billingCycles: 2 }],
      ['billing_cycles 24', { billingCycles: 24 }],
      ['billing_cycles null', { billingCycles: null }],
      ['days_until_due 1 and cancel_after_days 60', { daysUntilDue: 1, cancelAfterDays: 60 }],
      ['days_until_due 30 and cancel_after_days 1', { daysUntilDue: 30, cancelAfterDays: 1 }],
      [
        'a name of 100 emoji (characters, not UTF-16 units)',
        { customer: { phone: '+221771234567', name: '🎉'.repeat(100), email: null } },
      ],
      ['a description of 200 characters', { description: 'd'.repeat(200) }],
      ['a client_reference of 100 characters', { clientReference: 'r'.repeat(100) }],
      ['no description nor reference', { description: null, clientReference: null }],
      ['a metadata value of 500 characters', { metadata: { note: 'm'.repeat(500) } }],
    ])('accepts %s', (_, overrides) => {
      expect(given([]).when(createSubscription(overrides)).outcome()).toHaveLength(2);
    });

    const customer = (changes: object) => ({
      customer: { phone: '+221771234567', name: 'Awa Diop', email: null, ...changes },
    });

    it.each<[string, Parameters<typeof createSubscription>[0], string]>([
      ['a phone off the pattern', customer({ phone: '+221671234567' }), 'customer.phone'],
      ['a phone without +221', customer({ phone: '771234567' }), 'customer.phone'],
      ['an empty name', customer({ name: '' }), 'customer.name'],
      ['a name of 101 characters', customer({ name: 'n'.repeat(101) }), 'customer.name'],
      ['an email that is not one', customer({ email: 'awa at example' }), 'customer.email'],
      ['amount 99', { amount: 99 }, 'amount'],
      ['amount 100,000,001', { amount: 100_000_001 }, 'amount'],
      ['amount 150.5', { amount: 150.5 }, 'amount'],
      ['currency EUR', { currency: 'EUR' }, 'currency'],
      ['interval fortnight', { interval: 'fortnight' as never }, 'interval'],
      ['interval_count 0', { intervalCount: 0 }, 'interval_count'],
      ['interval_count 13', { intervalCount: 13 }, 'interval_count'],
      ['billing_cycles 1', { billingCycles: 1 }, 'billing_cycles'],
      ['billing_cycles 25', { billingCycles: 25 }, 'billing_cycles'],
      ['days_until_due 0', { daysUntilDue: 0 }, 'days_until_due'],
      ['days_until_due 31', { daysUntilDue: 31 }, 'days_until_due'],
      ['cancel_after_days 0', { cancelAfterDays: 0 }, 'cancel_after_days'],
      ['cancel_after_days 61', { cancelAfterDays: 61 }, 'cancel_after_days'],
      ['a description of 201 characters', { description: 'd'.repeat(201) }, 'description'],
      ['a client_reference of 101', { clientReference: 'r'.repeat(101) }, 'client_reference'],
      ['a metadata value of 501', { metadata: { note: 'm'.repeat(501) } }, 'metadata.note'],
      ['a metadata value not a string', { metadata: { n: 1 as never } }, 'metadata.n'],
    ])('refuses %s, naming the field', (_, overrides, field) => {
      const error = given([]).when(createSubscription(overrides)).thenRefuses('validation_error');
      expect(error.details).toEqual([{ field, issue: expect.any(String) }]);
    });
  });

  describe('AdvanceTestClock (spec 4.2 test_advance, CONTRACT 7)', () => {
    it("moves the subscription's clock to its next billing event and applies it", () => {
      given(newSubscription())
        .when(advanceTestClock('key-1'))
        .then([clockAdvanced('key-1', 2 * DAY, day(2)), reminderSent(1, day(2))]);
    });

    it('applies everything at that instant: the reminder at due_at, overdue, past due', () => {
      given([
        ...newSubscription(),
        clockAdvanced('key-1', 2 * DAY, day(2)),
        reminderSent(1, day(2)),
      ])
        .when(advanceTestClock('key-2'))
        .then([
          clockAdvanced('key-2', 3 * DAY, DUE_AT),
          reminderSent(2, DUE_AT),
          invoiceOverdue(),
          pastDue(),
        ]);
    });

    it('the same idempotency key never advances twice', () => {
      given([
        ...newSubscription(),
        clockAdvanced('key-1', 2 * DAY, day(2)),
        reminderSent(1, day(2)),
      ])
        .when(advanceTestClock('key-1'))
        .then([]);
    });

    it('never moves the clock back: an event already due on it is applied where the clock stands', () => {
      given([...newSubscription(), clockAdvanced('key-1', 5 * DAY, day(2))])
        .when(advanceTestClock('key-2'))
        .then([clockAdvanced('key-2', 5 * DAY, day(2)), reminderSent(1, day(2))]);
    });

    it('nothing left to happen (canceled, its invoice uncollectible): advancing does nothing', () => {
      const over = [
        ...newPastDueSubscription(),
        invoiceUncollectible(),
        canceled('uncollectible', GRACE_ENDS_AT),
      ];
      given(over).when(advanceTestClock('key-9')).then([]);
    });

    it('a completed subscription has nothing left either', () => {
      const done = [
        subscriptionCreated({ billingCycles: 2 }),
        invoiceCreated(),
        invoicePaid(),
        secondInvoiceCreated(),
        invoicePaid(OTHER_PAYMENT_ID, day(31), SECOND_INVOICE_ID),
        completed(day(31)),
      ];
      given(done).when(advanceTestClock('key-9')).then([]);
    });

    it('a live subscription has no test clock: forbidden (CONTRACT 2, test helpers on live)', () => {
      given(newLiveSubscription()).when(advanceTestClock('key-1')).thenRefuses('forbidden');
    });

    it('refuses an empty idempotency key; no subscription is not_found', () => {
      given(newSubscription()).when(advanceTestClock('')).thenRefuses('validation_error');
      given([]).when(advanceTestClock('key-1')).thenRefuses('not_found');
    });
  });

  describe('CancelSubscription (spec 3.3)', () => {
    it('at period end: scheduled, nothing voided; a repeat decides nothing', () => {
      given(newSubscription())
        .when(cancelSubscription(true))
        .then([cancelScheduled(day(1))]);
      given([...newSubscription(), cancelScheduled()])
        .when(cancelSubscription(true))
        .then([]);
    });

    it('now: canceled at once, and an open invoice with no payment attempt is voided', () => {
      given(newSubscription())
        .when(cancelSubscription(false))
        .then([canceled('requested', day(1)), invoiceVoided(day(1))]);
    });

    it('now: an attempt that has not reached checkout is voided with its invoice', () => {
      given([...newSubscription(), paymentStarted()])
        .when(
          cancelSubscription(false, [{ paymentId: PAYMENT_ID, checkoutStarted: false }], day(2)),
        )
        .then([canceled('requested', day(2)), invoiceVoided(day(2))]);
    });

    it('now: an attempt already with the provider keeps its invoice open and payable', () => {
      given([...newSubscription(), paymentStarted()])
        .when(cancelSubscription(false, [{ paymentId: PAYMENT_ID, checkoutStarted: true }], day(2)))
        .then([canceled('requested', day(2))]);
    });

    it('now, after a scheduled cancel: canceled at once', () => {
      given([...newSubscription(), invoicePaid(), cancelScheduled(day(3))])
        .when(cancelSubscription(false, [], day(4)))
        .then([canceled('requested', day(4))]);
    });

    it('stamped on the subscription clock: a test clock 10 days ahead cancels on day 11', () => {
      given([...newSubscription(), invoicePaid(), clockAdvanced('k', 10 * DAY, day(10))])
        .when(cancelSubscription(false, [], day(1)))
        .then([canceled('requested', day(11))]);
    });

    it('an already canceled subscription: a no-op, either way', () => {
      const over = [...newSubscription(), canceled('requested', day(1)), invoiceVoided()];
      given(over).when(cancelSubscription(false)).then([]);
      given(over).when(cancelSubscription(true)).then([]);
    });

    it('a completed subscription has nothing left to cancel: invalid_state', () => {
      const done = [
        subscriptionCreated({ billingCycles: 2 }),
        invoiceCreated(),
        invoicePaid(),
        secondInvoiceCreated(),
        invoicePaid(OTHER_PAYMENT_ID, day(31), SECOND_INVOICE_ID),
        completed(day(31)),
      ];
      given(done).when(cancelSubscription(false)).thenRefuses('invalid_state');
      given([]).when(cancelSubscription(false)).thenRefuses('not_found');
    });
  });
});
