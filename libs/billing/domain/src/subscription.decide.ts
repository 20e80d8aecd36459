import {
  assertNever,
  forbidden,
  invalidState,
  validationError,
  type Decider,
} from '@xaalis/kernel';
import { billingEffectsAt, invoiceOpened, nextBillingEventAt } from './billing-schedule';
import {
  recordInvoicePaid,
  recordInvoicePaymentFailed,
  startInvoicePayment,
} from './invoice-payment.decide';
import type {
  AdvanceTestClock,
  CancelSubscription,
  CreateSubscription,
  SubscriptionCommand,
  Tick,
} from './subscription.commands';
import type { SubscriptionCreated, SubscriptionEvent } from './subscription.events';
import {
  evolve,
  exists,
  initialState,
  requireSubscription,
  subscriptionNow,
  type SubscriptionState,
} from './subscription.state';
import {
  assertValidSubscription,
  idempotencyKeyIssues,
  withDefaults,
} from './subscription.validation';

export const liveClockRefused = () =>
  forbidden('Only a test subscription has a clock to advance; a live one runs on real time.');

function createSubscription(
  { data }: CreateSubscription,
  state: SubscriptionState,
): SubscriptionEvent[] {
  // Its id is fixed by the idempotency key: an existing subscription is this create's first run.
  if (exists(state)) return [];
  assertValidSubscription(data);
  const created: SubscriptionCreated = {
    type: 'SubscriptionCreated',
    data: {
      subscriptionId: data.subscriptionId,
      merchantId: data.merchantId,
      merchantName: data.merchantName,
      mode: data.mode,
      customer: {
        phone: data.customer.phone,
        name: data.customer.name,
        email: data.customer.email ?? null,
      },
      amount: data.amount,
      ...withDefaults(data),
      currency: 'XOF',
      interval: data.interval,
      description: data.description,
      clientReference: data.clientReference,
      metadata: { ...data.metadata },
      createdAt: data.now.toISOString(),
    },
  };
  // Period 0 starts at creation: its invoice opens with the subscription.
  return [created, invoiceOpened(created.data, 0)];
}

/** One billing instant per command: the scheduler repeats while `nextTickAt` has come. */
function tick({ data }: Tick, state: SubscriptionState): SubscriptionEvent[] {
  const subscription = requireSubscription(state);
  const at = nextBillingEventAt(subscription);
  if (at === null || at > subscriptionNow(subscription, data.now)) return [];
  return billingEffectsAt(subscription, at);
}

/**
 * Moves the test clock to the next billing event (never back: an event already due on the clock
 * is applied where the clock stands) and applies it. Nothing left to happen: nothing to do, and
 * the key is not spent. A key already used advances nothing more.
 */
function advanceTestClock(
  { data }: AdvanceTestClock,
  state: SubscriptionState,
): SubscriptionEvent[] {
  const subscription = requireSubscription(state);
  if (subscription.mode === 'live') throw liveClockRefused();
  const keyIssues = idempotencyKeyIssues(data.idempotencyKey);
  if (keyIssues.length > 0) throw validationError(keyIssues);
  if (subscription.advanceKeys.has(data.idempotencyKey)) return [];
  const at = nextBillingEventAt(subscription);
  if (at === null) return [];
  const effects = billingEffectsAt(subscription, at);
  const offsetMs = Math.max(subscription.clockOffsetMs, at.getTime() - data.now.getTime());
  return [
    {
      type: 'TestClockAdvanced',
      data: {
        subscriptionId: subscription.subscriptionId,
        idempotencyKey: data.idempotencyKey,
        offsetMs,
        advancedTo: at.toISOString(),
      },
    } satisfies SubscriptionEvent,
    ...effects,
  ];
}

/**
 * A canceled subscription is canceled again as a no-op (the merchant gets it back as it is); a
 * completed one has nothing left to cancel, and saying `canceled` would rewrite how it ended.
 * Cancel now voids each open invoice unless its current payment already reached the provider's
 * checkout: that one stays payable, and may still settle (spec 3.3).
 */
function cancelSubscription(
  { data }: CancelSubscription,
  state: SubscriptionState,
): SubscriptionEvent[] {
  const subscription = requireSubscription(state);
  if (subscription.status === 'canceled') return [];
  if (subscription.status === 'completed') {
    throw invalidState('The subscription is completed: there is nothing left to cancel.', {
      status: subscription.status,
    });
  }
  const { subscriptionId } = subscription;
  const at = subscriptionNow(subscription, data.now).toISOString();
  if (data.atPeriodEnd) {
    if (subscription.cancelAtPeriodEnd) return [];
    return [{ type: 'SubscriptionCancelScheduled', data: { subscriptionId, scheduledAt: at } }];
  }
  const started = new Set(
    data.pendingPayments
      .filter((payment) => payment.checkoutStarted)
      .map((payment) => payment.paymentId),
  );
  const voided = subscription.invoices
    .filter((invoice) => invoice.status === 'open')
    .filter((invoice) => invoice.payment === null || !started.has(invoice.payment))
    .map((invoice): SubscriptionEvent => ({
      type: 'InvoiceVoided',
      data: { subscriptionId, invoiceId: invoice.invoiceId, voidedAt: at },
    }));
  return [
    {
      type: 'SubscriptionCanceled',
      data: { subscriptionId, reason: 'requested', canceledAt: at },
    } satisfies SubscriptionEvent,
    ...voided,
  ];
}

export function decide(
  command: SubscriptionCommand,
  state: SubscriptionState,
): SubscriptionEvent[] {
  switch (command.type) {
    case 'CreateSubscription':
      return createSubscription(command, state);
    case 'Tick':
      return tick(command, state);
    case 'AdvanceTestClock':
      return advanceTestClock(command, state);
    case 'CancelSubscription':
      return cancelSubscription(command, state);
    case 'StartInvoicePayment':
      return startInvoicePayment(command, state);
    case 'RecordInvoicePaymentFailed':
      return recordInvoicePaymentFailed(command, state);
    case 'RecordInvoicePaid':
      return recordInvoicePaid(command, state);
    default:
      return assertNever(command);
  }
}

export const subscriptionDecider: Decider<
  SubscriptionState,
  SubscriptionCommand,
  SubscriptionEvent
> = { initialState, evolve, decide };
