/**
 * Subscriptions' and invoices' request-reply patterns (spec 4.2, CONTRACT 4, 5 and 7): the
 * gateway asks, the billing app answers. Part of `REQUESTS` (requests.ts).
 */
import {
  CancelSubscriptionRequest,
  CreateSubscriptionRequest,
  InvoiceCheckoutRequest,
  InvoiceRef,
  ListInvoicesRequest,
  ListSubscriptionsRequest,
  PublicInvoiceRef,
  SubscriptionRef,
  TestAdvanceRequest,
} from './subscriptions.messages';
import {
  CanceledSubscriptionReply,
  InvoiceCheckoutReply,
  InvoiceListReply,
  InvoiceReply,
  PublicInvoiceReply,
  SubscriptionListReply,
  SubscriptionReply,
} from './subscriptions.replies';
import type { RequestContract } from '../shared/request-contract';

export const BILLING_SUBSCRIPTION_CREATE = 'billing.subscription.create';
export const BILLING_SUBSCRIPTION_GET = 'billing.subscription.get';
export const BILLING_SUBSCRIPTION_LIST = 'billing.subscription.list';
export const BILLING_SUBSCRIPTION_CANCEL = 'billing.subscription.cancel';
export const BILLING_SUBSCRIPTION_TEST_ADVANCE = 'billing.subscription.test_advance';
export const BILLING_INVOICE_GET = 'billing.invoice.get';
export const BILLING_INVOICE_LIST = 'billing.invoice.list';
export const BILLING_INVOICE_PUBLIC_GET = 'billing.invoice.public_get';
export const BILLING_INVOICE_CHECKOUT = 'billing.invoice.checkout';

const fromGateway = { owner: 'billing', callers: ['gateway'] } as const;

export const BILLING_REQUESTS = {
  [BILLING_SUBSCRIPTION_CREATE]: {
    ...fromGateway,
    request: CreateSubscriptionRequest,
    reply: SubscriptionReply,
  } satisfies RequestContract<CreateSubscriptionRequest, SubscriptionReply>,
  [BILLING_SUBSCRIPTION_GET]: {
    ...fromGateway,
    request: SubscriptionRef,
    reply: SubscriptionReply,
  } satisfies RequestContract<SubscriptionRef, SubscriptionReply>,
  [BILLING_SUBSCRIPTION_LIST]: {
    ...fromGateway,
    request: ListSubscriptionsRequest,
    reply: SubscriptionListReply,
  } satisfies RequestContract<ListSubscriptionsRequest, SubscriptionListReply>,
  [BILLING_SUBSCRIPTION_CANCEL]: {
    ...fromGateway,
    request: CancelSubscriptionRequest,
    reply: CanceledSubscriptionReply,
  } satisfies RequestContract<CancelSubscriptionRequest, CanceledSubscriptionReply>,
  [BILLING_SUBSCRIPTION_TEST_ADVANCE]: {
    ...fromGateway,
    request: TestAdvanceRequest,
    reply: SubscriptionReply,
  } satisfies RequestContract<TestAdvanceRequest, SubscriptionReply>,
  [BILLING_INVOICE_GET]: {
    ...fromGateway,
    request: InvoiceRef,
    reply: InvoiceReply,
  } satisfies RequestContract<InvoiceRef, InvoiceReply>,
  [BILLING_INVOICE_LIST]: {
    ...fromGateway,
    request: ListInvoicesRequest,
    reply: InvoiceListReply,
  } satisfies RequestContract<ListInvoicesRequest, InvoiceListReply>,
  [BILLING_INVOICE_PUBLIC_GET]: {
    ...fromGateway,
    request: PublicInvoiceRef,
    reply: PublicInvoiceReply,
  } satisfies RequestContract<PublicInvoiceRef, PublicInvoiceReply>,
  [BILLING_INVOICE_CHECKOUT]: {
    ...fromGateway,
    request: InvoiceCheckoutRequest,
    reply: InvoiceCheckoutReply,
  } satisfies RequestContract<InvoiceCheckoutRequest, InvoiceCheckoutReply>,
};
