import { livemode, type Currency } from '@xaalis/kernel';
import type { CustomerProvider, PaymentProvider } from './payment.events';
import { amountRefunded, type Payment, type PaymentStatus } from './payment.state';

/** What the views need from outside the stream: the public base URL and the payment's `cs`. */
export interface PaymentLinks {
  baseUrl: string;
  clientSecret: string;
}

export interface NextAction {
  type: 'redirect';
  url: string;
}

/** Spec 2.1: the payment as `GET /v1/payments/{id}` and the payment events show it. */
export interface PaymentObject {
  id: string;
  object: 'payment';
  livemode: boolean;
  amount: number;
  currency: Currency;
  fee: number;
  net: number;
  amount_refunded: number;
  status: PaymentStatus;
  provider: PaymentProvider | null;
  client_reference: string | null;
  description: string | null;
  customer: { phone: string | null; name: string | null };
  checkout_url: string;
  next_action: NextAction;
  metadata: Record<string, string>;
  failure_reason: string | null;
  provider_transaction_id: string | null;
  expires_at: string;
  succeeded_at: string | null;
  created_at: string;
}

/** Spec 2.2: what the customer's browser sees (hosted page, public pay step). */
export interface CustomerPaymentView {
  id: string;
  livemode: boolean;
  amount: number;
  currency: Currency;
  status: PaymentStatus;
  description: string | null;
  merchant: { name: string };
  provider: PaymentProvider | null;
  available_providers: CustomerProvider[];
  next_action: NextAction;
  expires_at: string;
  return_url: string | null;
}

export const checkoutUrl = (payment: Payment, links: PaymentLinks): string =>
  `${links.baseUrl}/checkout/${payment.paymentId}?cs=${encodeURIComponent(links.clientSecret)}`;

/**
 * Where the customer goes next: the provider's page while it is waiting for them, else the
 * hosted checkout (to pick a method, or to see how it ended). Sandbox pages are recorded as
 * paths and get the `cs` here, so no secret is ever written to a stream.
 */
export function nextAction(payment: Payment, links: PaymentLinks): NextAction {
  const redirect = payment.status === 'processing' ? payment.redirectUrl : null;
  if (redirect === null) return { type: 'redirect', url: checkoutUrl(payment, links) };
  if (redirect.startsWith('/')) {
    return {
      type: 'redirect',
      url: `${links.baseUrl}${redirect}?cs=${encodeURIComponent(links.clientSecret)}`,
    };
  }
  return { type: 'redirect', url: redirect };
}

export function toPaymentObject(payment: Payment, links: PaymentLinks): PaymentObject {
  return {
    id: payment.paymentId,
    object: 'payment',
    livemode: livemode(payment.mode),
    amount: payment.amount,
    currency: payment.currency,
    fee: payment.fee,
    net: payment.net,
    amount_refunded: amountRefunded(payment),
    status: payment.status,
    provider: payment.provider,
    client_reference: payment.clientReference,
    description: payment.description,
    customer: { phone: payment.customer.phone, name: payment.customer.name },
    checkout_url: checkoutUrl(payment, links),
    next_action: nextAction(payment, links),
    metadata: payment.metadata,
    failure_reason: payment.failureReason,
    provider_transaction_id: payment.providerTransactionId,
    expires_at: payment.expiresAt,
    succeeded_at: payment.succeededAt,
    created_at: payment.createdAt,
  };
}

/** Where to send the customer once the payment has ended; null while it has not. */
export function returnUrl(payment: Payment): string | null {
  switch (payment.status) {
    case 'succeeded':
    case 'refunded':
      return payment.successUrl;
    case 'failed':
    case 'expired':
      return payment.cancelUrl;
    case 'requires_payment_method':
    case 'processing':
      return null;
  }
}

export function toCustomerView(payment: Payment, links: PaymentLinks): CustomerPaymentView {
  return {
    id: payment.paymentId,
    livemode: livemode(payment.mode),
    amount: payment.amount,
    currency: payment.currency,
    status: payment.status,
    description: payment.description,
    merchant: { name: payment.merchantName },
    provider: payment.provider,
    available_providers: payment.availableProviders,
    next_action: nextAction(payment, links),
    expires_at: payment.expiresAt,
    return_url: returnUrl(payment),
  };
}
