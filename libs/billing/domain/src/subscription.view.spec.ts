import { integrationEventTypeOf } from './subscription.integration-events';
import type { SubscriptionEvent } from './subscription.events';
import {
  BASE_URL,
  cancelScheduled,
  canceled,
  clockAdvanced,
  completed,
  day,
  extraPaymentReceived,
  INVOICE_ID,
  invoiceCreated,
  invoiceOverdue,
  invoicePaid,
  invoiceUncollectible,
  invoiceVoided,
  newSubscription,
  pastDue,
  paymentFailed,
  paymentStarted,
  reminderSent,
  returnedToActive,
  SECOND_INVOICE_ID,
  secondInvoiceCreated,
  SUBSCRIPTION_ID,
  subscriptionCreated,
  subscriptionOf,
  T0,
} from './subscription.fixtures';
import { subscriptionView } from './subscription.view';

const links = { hostedInvoiceBaseUrl: BASE_URL };

describe('subscription and invoice views (spec 2.3, 2.4)', () => {
  it('a new subscription: exactly the fields of 2.3, its first invoice embedded as 2.4', () => {
    expect(subscriptionView(subscriptionOf(newSubscription()), links)).toEqual({
      id: SUBSCRIPTION_ID,
      object: 'subscription',
      livemode: false,
      status: 'active',
      customer: { phone: '+221771234567', name: 'Awa Diop', email: 'awa@example.sn' },
      amount: 5_000,
      currency: 'XOF',
      interval: 'month',
      interval_count: 1,
      billing_cycles: null,
      cycles_paid: 0,
      current_period_start: '2026-11-22T10:00:00.000Z',
      current_period_end: '2026-12-22T10:00:00.000Z',
      next_invoice_at: '2026-12-22T10:00:00.000Z',
      cancel_at_period_end: false,
      canceled_at: null,
      completed_at: null,
      days_until_due: 3,
      cancel_after_days: 14,
      description: 'Abonnement fibre',
      client_reference: 'contract-42',
      metadata: { plan: 'fibre-100' },
      latest_invoice: {
        id: INVOICE_ID,
        object: 'invoice',
        livemode: false,
        subscription: SUBSCRIPTION_ID,
        period_index: 0,
        period_start: '2026-11-22T10:00:00.000Z',
        period_end: '2026-12-22T10:00:00.000Z',
        amount: 5_000,
        currency: 'XOF',
        status: 'open',
        payment: null,
        hosted_invoice_url: `${BASE_URL}/invoices/${INVOICE_ID}/pay`,
        due_at: '2026-11-25T10:00:00.000Z',
        grace_ends_at: '2026-12-09T10:00:00.000Z',
        paid_at: null,
        reminders_sent: 0,
        created_at: '2026-11-22T10:00:00.000Z',
      },
      created_at: T0.toISOString(),
    });
  });

  it('the latest period and invoice; cycles paid; live mode', () => {
    const history = [
      subscriptionCreated({ mode: 'live' }),
      invoiceCreated(),
      invoicePaid(),
      secondInvoiceCreated(),
    ];
    expect(subscriptionView(subscriptionOf(history), links)).toMatchObject({
      livemode: true,
      cycles_paid: 1,
      current_period_start: '2026-12-22T10:00:00.000Z',
      current_period_end: '2027-01-22T10:00:00.000Z',
      next_invoice_at: '2027-01-22T10:00:00.000Z',
      latest_invoice: { id: SECOND_INVOICE_ID, livemode: true, period_index: 1 },
    });
  });

  it.each<[string, SubscriptionEvent[]]>([
    ['cancel scheduled', [...newSubscription(), cancelScheduled()]],
    ['canceled', [...newSubscription(), canceled('requested', day(1)), invoiceVoided()]],
    [
      'the last of billing_cycles invoiced',
      [subscriptionCreated({ billingCycles: 2 }), invoiceCreated(), secondInvoiceCreated()],
    ],
  ])('next_invoice_at is null once nothing more will be billed: %s', (_, history) => {
    expect(subscriptionView(subscriptionOf(history), links).next_invoice_at).toBeNull();
  });

  it('a paid invoice shows its payment and paid_at; a reminded one its count', () => {
    const history = [
      ...newSubscription(),
      reminderSent(1, day(2)),
      paymentStarted(),
      invoicePaid(),
    ];
    expect(subscriptionView(subscriptionOf(history), links).latest_invoice).toMatchObject({
      status: 'paid',
      payment: 'pay_01JD0000000000000000000000',
      paid_at: day(2).toISOString(),
      reminders_sent: 1,
    });
  });
});

describe('integrationEventTypeOf (spec 6)', () => {
  const cases: [SubscriptionEvent, string | null][] = [
    [invoiceCreated(), 'invoice.created'],
    [invoicePaid(), 'invoice.paid'],
    [invoiceOverdue(), 'invoice.overdue'],
    [pastDue(), 'subscription.past_due'],
    [canceled('uncollectible', day(17)), 'subscription.canceled'],
    [completed(day(2)), 'subscription.completed'],
    [subscriptionCreated(), null],
    [reminderSent(1, day(2)), null],
    [invoiceUncollectible(), null],
    [cancelScheduled(), null],
    [invoiceVoided(), null],
    [paymentStarted(), null],
    [paymentFailed(), null],
    [extraPaymentReceived(), null],
    [returnedToActive(day(4)), null],
    [clockAdvanced('k', 1, day(1)), null],
  ];

  it.each(cases.map(([event, type]) => [event.type, type, event] as const))(
    '%s → %s',
    (_, type, event) => {
      expect(integrationEventTypeOf(event)).toBe(type);
    },
  );
});
