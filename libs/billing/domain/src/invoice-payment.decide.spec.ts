import { givenWhenThen } from '@xaalis/kernel/testing';
import { subscriptionDecider } from './subscription.decide';
import {
  canceled,
  clockAdvanced,
  completed,
  DAY,
  day,
  DUE_AT,
  extraPaymentReceived,
  GRACE_ENDS_AT,
  invoiceCreated,
  invoiceOverdue,
  invoicePaid,
  invoiceUncollectible,
  invoiceVoided,
  newPastDueSubscription,
  newSubscription,
  OTHER_PAYMENT_ID,
  pastDue,
  PAYMENT_ID,
  paymentFailed,
  paymentStarted,
  recordInvoicePaid,
  recordPaymentFailed,
  reminderSent,
  returnedToActive,
  SECOND_INVOICE_ID,
  secondInvoiceCreated,
  startInvoicePayment,
  subscriptionCreated,
} from './subscription.fixtures';

const { given } = givenWhenThen(subscriptionDecider);

/** Daily, 3 days to pay: invoice 1 opens while invoice 0 is still open; both go overdue. */
const twoOverdue = () => [
  subscriptionCreated({ interval: 'day' }),
  invoiceCreated({ periodEnd: day(1).toISOString() }),
  invoiceCreated({
    invoiceId: SECOND_INVOICE_ID,
    periodIndex: 1,
    periodStart: day(1).toISOString(),
    periodEnd: day(2).toISOString(),
    dueAt: day(4).toISOString(),
    graceEndsAt: day(18).toISOString(),
    createdAt: day(1).toISOString(),
  }),
  invoiceOverdue(),
  pastDue(),
  invoiceOverdue(day(4), SECOND_INVOICE_ID),
];

describe('invoice payments', () => {
  describe('StartInvoicePayment', () => {
    it('records the attempt as the invoice payment; the same attempt again decides nothing', () => {
      given(newSubscription()).when(startInvoicePayment()).then([paymentStarted()]);
      given([...newSubscription(), paymentStarted()])
        .when(startInvoicePayment())
        .then([]);
    });

    it('another attempt while one is not confirmed failed: invalid_state naming the current one', () => {
      const error = given([...newSubscription(), paymentStarted()])
        .when(startInvoicePayment(OTHER_PAYMENT_ID))
        .thenRefuses('invalid_state');
      expect(error.details).toEqual({ payment: PAYMENT_ID });
    });

    it('after the attempt failed, a new one replaces it', () => {
      given([...newSubscription(), paymentStarted(), paymentFailed()])
        .when(startInvoicePayment(OTHER_PAYMENT_ID, day(2)))
        .then([paymentStarted(OTHER_PAYMENT_ID, day(2))]);
    });

    it('an overdue invoice is still payable during grace', () => {
      given(newPastDueSubscription())
        .when(startInvoicePayment(PAYMENT_ID, day(16)))
        .then([paymentStarted(PAYMENT_ID, day(16))]);
    });

    it('at grace end it is not, even before the clock has marked it uncollectible', () => {
      given(newPastDueSubscription())
        .when(startInvoicePayment(PAYMENT_ID, GRACE_ENDS_AT))
        .thenRefuses('invalid_state');
      // A test clock 17 days ahead: application time T0 + 1 day is past its grace.
      given([...newSubscription(), clockAdvanced('k', 17 * DAY, GRACE_ENDS_AT)])
        .when(startInvoicePayment(PAYMENT_ID, day(1)))
        .thenRefuses('invalid_state');
    });

    it.each([
      ['paid', [...newSubscription(), invoicePaid()]],
      ['void', [...newSubscription(), canceled('requested', day(1)), invoiceVoided()]],
      ['uncollectible', [...newPastDueSubscription(), invoiceUncollectible()]],
    ])('a %s invoice takes no payment: invalid_state', (status, history) => {
      const error = given(history)
        .when(startInvoicePayment(OTHER_PAYMENT_ID))
        .thenRefuses('invalid_state');
      expect(error.details).toEqual({ status });
    });

    it('an unknown invoice is not_found', () => {
      given(newSubscription())
        .when(startInvoicePayment(PAYMENT_ID, day(1), 'in_unknown'))
        .thenRefuses('not_found');
    });
  });

  describe('RecordInvoicePaymentFailed', () => {
    it('clears the current attempt; a repeat or a stale attempt decides nothing', () => {
      given([...newSubscription(), paymentStarted()])
        .when(recordPaymentFailed())
        .then([paymentFailed()]);
      given([...newSubscription(), paymentStarted(), paymentFailed()])
        .when(recordPaymentFailed())
        .then([]);
      given([...newSubscription(), paymentStarted()])
        .when(recordPaymentFailed(OTHER_PAYMENT_ID))
        .then([]);
    });

    it('after a cancel now kept the invoice open for its payment in flight, voids it', () => {
      given([...newSubscription(), paymentStarted(), canceled('requested', day(1.2))])
        .when(recordPaymentFailed())
        .then([paymentFailed(), invoiceVoided(day(1.5))]);
    });

    it('after a cancel for an unpaid invoice, another open invoice stays payable to its grace end', () => {
      given([...twoOverdue(), paymentStarted(), canceled('uncollectible', day(17))])
        .when(recordPaymentFailed())
        .then([paymentFailed()]);
    });
  });

  describe('RecordInvoicePaid', () => {
    it('an open invoice: paid, cycles_paid + 1; the subscription stays active', () => {
      given([...newSubscription(), paymentStarted()])
        .when(recordInvoicePaid())
        .then([invoicePaid()]);
    });

    it('past due, its only overdue invoice paid in grace: active again', () => {
      given(newPastDueSubscription())
        .when(recordInvoicePaid(PAYMENT_ID, day(10)))
        .then([invoicePaid(PAYMENT_ID, day(10)), returnedToActive(day(10))]);
    });

    it('past due with another open invoice overdue: stays past due', () => {
      given(twoOverdue())
        .when(recordInvoicePaid(PAYMENT_ID, day(5)))
        .then([invoicePaid(PAYMENT_ID, day(5))]);
      given([...twoOverdue(), invoicePaid(PAYMENT_ID, day(5))])
        .when(recordInvoicePaid(OTHER_PAYMENT_ID, day(6), SECOND_INVOICE_ID))
        .then([invoicePaid(OTHER_PAYMENT_ID, day(6), SECOND_INVOICE_ID), returnedToActive(day(6))]);
    });

    it('the last of billing_cycles paid: completed (even from past due)', () => {
      const lastOverdue = [
        subscriptionCreated({ billingCycles: 2 }),
        invoiceCreated(),
        invoicePaid(),
        secondInvoiceCreated(),
        invoiceOverdue(new Date('2026-12-25T10:00:00.000Z'), SECOND_INVOICE_ID),
        pastDue(new Date('2026-12-25T10:00:00.000Z'), SECOND_INVOICE_ID),
      ];
      given(lastOverdue)
        .when(recordInvoicePaid(OTHER_PAYMENT_ID, day(40), SECOND_INVOICE_ID))
        .then([invoicePaid(OTHER_PAYMENT_ID, day(40), SECOND_INVOICE_ID), completed(day(40))]);
    });

    it('a payment other than the current attempt still pays an open invoice (the money moved)', () => {
      given([...newSubscription(), paymentStarted()])
        .when(recordInvoicePaid(OTHER_PAYMENT_ID))
        .then([invoicePaid(OTHER_PAYMENT_ID)]);
    });

    it('the same payment delivered twice: nothing the second time', () => {
      given([...newSubscription(), invoicePaid()])
        .when(recordInvoicePaid(PAYMENT_ID, day(3)))
        .then([]);
    });

    it('a second payment for a paid invoice: recorded as extra (to refund), paying nothing more', () => {
      given([...newSubscription(), invoicePaid()])
        .when(recordInvoicePaid(OTHER_PAYMENT_ID, day(2.5)))
        .then([extraPaymentReceived()]);
      given([...newSubscription(), invoicePaid(), extraPaymentReceived()])
        .when(recordInvoicePaid(OTHER_PAYMENT_ID, day(3)))
        .then([]);
    });

    it('a void invoice paid by a payment that raced the cancel: paid; the subscription stays canceled', () => {
      given([
        ...newSubscription(),
        paymentStarted(),
        canceled('requested', day(1)),
        invoiceVoided(),
      ])
        .when(recordInvoicePaid(PAYMENT_ID, day(1.1)))
        .then([invoicePaid(PAYMENT_ID, day(1.1))]);
    });

    it('an uncollectible invoice paid after grace: paid; the subscription stays canceled', () => {
      const lost = [
        ...newPastDueSubscription(),
        paymentStarted(PAYMENT_ID, day(16.9)),
        invoiceUncollectible(),
        canceled('uncollectible', GRACE_ENDS_AT),
      ];
      given(lost)
        .when(recordInvoicePaid(PAYMENT_ID, day(17.1)))
        .then([invoicePaid(PAYMENT_ID, day(17.1))]);
    });

    it("stamped on the subscription's clock: a test clock 3 days ahead", () => {
      given([...newSubscription(), clockAdvanced('k', 3 * DAY, DUE_AT), reminderSent(1, day(2))])
        .when(recordInvoicePaid(PAYMENT_ID, day(1)))
        .then([invoicePaid(PAYMENT_ID, day(4))]);
    });

    it('an unknown invoice is not_found; no subscription too', () => {
      given(newSubscription())
        .when(recordInvoicePaid(PAYMENT_ID, day(1), 'in_unknown'))
        .thenRefuses('not_found');
      given([]).when(recordInvoicePaid()).thenRefuses('not_found');
    });
  });
});
