import type {
  CancelSubscriptionRequest,
  CreateSubscriptionRequest,
  TestAdvanceRequest,
} from '@xaalis/contracts';
import {
  DEFAULT_CANCEL_AFTER_DAYS,
  DEFAULT_DAYS_UNTIL_DUE,
  DEFAULT_INTERVAL_COUNT,
  type Mode,
} from '@xaalis/kernel';
import type { CancelSubscriptionDto } from './cancel-subscription.dto';
import type { CreateSubscriptionDto } from './create-subscription.dto';

/** Whose subscription, in which mode: the API key's or the dashboard path's. */
interface BillingScope {
  merchantId: string;
  mode: Mode;
}

/**
 * The create message, every field set: spec 4.2's defaults are applied here, once, so the billing
 * app never guesses what an absent field meant. `currency` is not sent: XOF is the only one.
 */
export function createSubscriptionMessage(
  scope: BillingScope,
  subscriptionId: string,
  merchantName: string,
  body: CreateSubscriptionDto,
): CreateSubscriptionRequest {
  return {
    merchant_id: scope.merchantId,
    mode: scope.mode,
    subscription_id: subscriptionId,
    merchant_name: merchantName,
    customer: {
      phone: body.customer.phone,
      name: body.customer.name,
      email: body.customer.email ?? null,
    },
    amount: body.amount,
    interval: body.interval,
    interval_count: body.interval_count ?? DEFAULT_INTERVAL_COUNT,
    billing_cycles: body.billing_cycles ?? null,
    days_until_due: body.days_until_due ?? DEFAULT_DAYS_UNTIL_DUE,
    cancel_after_days: body.cancel_after_days ?? DEFAULT_CANCEL_AFTER_DAYS,
    description: body.description ?? null,
    client_reference: body.client_reference ?? null,
    metadata: body.metadata ?? {},
  };
}

/** Spec 4.2: without `at_period_end`, the subscription is canceled now. */
export function cancelSubscriptionMessage(
  scope: BillingScope,
  subscriptionId: string,
  body: CancelSubscriptionDto,
): CancelSubscriptionRequest {
  return {
    merchant_id: scope.merchantId,
    mode: scope.mode,
    subscription_id: subscriptionId,
    at_period_end: body.at_period_end ?? false,
  };
}

/**
 * The advance of both test_advance routes. The request's idempotency key names the advance, so
 * the billing app applies it once even if the gateway's idempotency record was lost.
 */
export function testAdvanceMessage(
  scope: BillingScope,
  subscriptionId: string,
  idempotencyKey: string,
): TestAdvanceRequest {
  return {
    merchant_id: scope.merchantId,
    mode: scope.mode,
    subscription_id: subscriptionId,
    idempotency_key: idempotencyKey,
  };
}
