import { Inject, Injectable } from '@nestjs/common';
import { openPaymentAttempts, type PaymentCheckout } from '@xaalis/billing-domain';
import { BUS_CLIENT, CLOCK } from '@xaalis/config';
import {
  type BusRequester,
  type CanceledSubscriptionReply,
  type CancelSubscriptionRequest,
  type CreateSubscriptionRequest,
  type ListSubscriptionsRequest,
  type SubscriptionListReply,
  type SubscriptionRef,
  type SubscriptionReply,
  type TestAdvanceRequest,
} from '@xaalis/contracts';
import { notFound, type Clock } from '@xaalis/kernel';
import { findInvoicePayment } from './invoice-payment-lookup';
import { BillingCommands } from './billing.commands';
import { BillingQueries } from './billing.queries';
import { BillingViews } from './billing-views';
import { PublishedEvents } from './published-events';

/**
 * Subscriptions (spec 4.2, CONTRACT 7): every change is a command on the subscription's stream,
 * which holds its invoices; reads fold the stream, lists read the read model.
 */
@Injectable()
export class SubscriptionsService {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BUS_CLIENT) private readonly bus: BusRequester,
    private readonly commands: BillingCommands,
    private readonly queries: BillingQueries,
    private readonly views: BillingViews,
    private readonly published: PublishedEvents,
  ) {}

  /** The id is fixed by the idempotency key: a retry finds the subscription its first run made. */
  async create(request: CreateSubscriptionRequest): Promise<SubscriptionReply> {
    const subscriptionId = request.subscription_id;
    const { state } = await this.commands.subscription(
      subscriptionId,
      {
        type: 'CreateSubscription',
        data: {
          subscriptionId,
          merchantId: request.merchant_id,
          merchantName: request.merchant_name,
          mode: request.mode,
          customer: {
            phone: request.customer.phone,
            name: request.customer.name,
            email: request.customer.email ?? null,
          },
          amount: request.amount,
          interval: request.interval,
          intervalCount: request.interval_count,
          billingCycles: request.billing_cycles,
          daysUntilDue: request.days_until_due,
          cancelAfterDays: request.cancel_after_days,
          description: request.description ?? null,
          clientReference: request.client_reference ?? null,
          metadata: request.metadata,
          now: this.clock.now(),
        },
      },
      { newStream: true },
    );
    // A retry's id under another merchant's key can only meet another merchant's subscription
    // by a collision of random ids; it is not shown.
    if (state.merchantId !== request.merchant_id || state.mode !== request.mode) {
      throw notFound('subscription');
    }
    return this.views.subscription(state);
  }

  async get(request: SubscriptionRef): Promise<SubscriptionReply> {
    const subscription = await this.queries.subscription(
      request.merchant_id,
      request.mode,
      request.subscription_id,
    );
    return this.views.subscription(subscription);
  }

  async list(request: ListSubscriptionsRequest): Promise<SubscriptionListReply> {
    const rows = await this.queries.listSubscriptions(request.merchant_id, request.mode, {
      limit: request.limit,
      startingAfter: request.starting_after,
      status: request.status,
    });
    return {
      data: rows.slice(0, request.limit).map((row) => this.views.subscription(row)),
      has_more: rows.length > request.limit,
    };
  }

  /**
   * Spec 4.2: now, or at the period's end. Cancelling now voids each open invoice whose payment
   * has not reached a provider; one that has may still settle, and is answered as
   * `pending_payment`.
   */
  async cancel(request: CancelSubscriptionRequest): Promise<CanceledSubscriptionReply> {
    const subscription = await this.queries.subscription(
      request.merchant_id,
      request.mode,
      request.subscription_id,
    );
    const attempts = await Promise.all(
      openPaymentAttempts(subscription).map(async (paymentId) => ({
        paymentId,
        payment: await findInvoicePayment(this.bus, subscription, paymentId),
      })),
    );
    const pendingPayments: PaymentCheckout[] = attempts.map(({ paymentId, payment }) => ({
      paymentId,
      checkoutStarted: payment !== undefined && payment.status !== 'requires_payment_method',
    }));
    const { state } = await this.commands.subscription(subscription.subscriptionId, {
      type: 'CancelSubscription',
      data: { atPeriodEnd: request.at_period_end, pendingPayments, now: this.clock.now() },
    });
    const inFlight = attempts.find(({ payment }) => payment?.status === 'processing')?.payment;
    const answer = this.views.subscription(state);
    return inFlight
      ? { ...answer, pending_payment: { id: inFlight.id, status: inFlight.status } }
      : answer;
  }

  /**
   * CONTRACT 7: moves this test subscription's own clock to its next billing event and applies
   * it. Answered once the webhook events it caused are in `GET /v1/events`. The idempotency key
   * is recorded on the stream: the same key never advances twice.
   */
  async testAdvance(request: TestAdvanceRequest): Promise<SubscriptionReply> {
    const subscription = await this.queries.subscription(
      request.merchant_id,
      request.mode,
      request.subscription_id,
    );
    const outcome = await this.commands.subscription(subscription.subscriptionId, {
      type: 'AdvanceTestClock',
      data: { idempotencyKey: request.idempotency_key, now: this.clock.now() },
    });
    await this.published.waitFor(outcome);
    return this.views.subscription(outcome.state);
  }
}
