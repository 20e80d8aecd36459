import type { Currency, CustomerProvider, Mode, PaymentProvider } from '@xaalis/kernel';

// The provider names are shared with the gateway and the messages: defined once, in the kernel.
export { CUSTOMER_PROVIDERS, type CustomerProvider, type PaymentProvider } from '@xaalis/kernel';

/**
 * Facts of the payment aggregate (stream `payment-<pay_id>`). Refunds live in the payment's own
 * stream: a refund is only ever decided against the payment's state (succeeded, what is left to
 * refund), so one stream keeps that decision consistent without a second aggregate.
 */
export interface Customer {
  phone: string | null;
  name: string | null;
}

export type PaymentCreated = {
  type: 'PaymentCreated';
  data: {
    paymentId: string;
    merchantId: string;
    mode: Mode;
    /** Shown on the hosted pages; captured at creation so the customer side needs no other context. */
    merchantName: string;
    amount: number;
    currency: Currency;
    description: string | null;
    clientReference: string | null;
    customer: Customer;
    successUrl: string | null;
    cancelUrl: string | null;
    metadata: Record<string, string>;
    /** Wave's aggregated merchant id for live `wave` payments in aggregator mode, else null. */
    aggregatedMerchantId: string | null;
    /** What the hosted page offers: live `wave` needs the aggregated identity (CONTRACT 5). */
    availableProviders: CustomerProvider[];
    expiresAt: string;
    createdAt: string;
  };
};

/**
 * The customer (or the merchant at creation) picked a provider and the provider's session was
 * started. `redirectUrl` null means the start had an unknown outcome (timeout, 429, 5xx): the
 * payment is `processing` and reconciliation asks the provider what became of it.
 */
export type PaymentMethodChosen = {
  type: 'PaymentMethodChosen';
  data: {
    paymentId: string;
    provider: CustomerProvider;
    providerReference: string | null;
    redirectUrl: string | null;
    customerPhone: string | null;
    fee: number;
    net: number;
    chosenAt: string;
  };
};

/** Reconciliation found the session whose start had an unknown outcome. */
export type PaymentSessionFound = {
  type: 'PaymentSessionFound';
  data: {
    paymentId: string;
    providerReference: string;
    redirectUrl: string | null;
    foundAt: string;
  };
};

export type PaymentSucceeded = {
  type: 'PaymentSucceeded';
  data: {
    paymentId: string;
    provider: PaymentProvider;
    providerTransactionId: string | null;
    fee: number;
    net: number;
    succeededAt: string;
  };
};

export type PaymentFailed = {
  type: 'PaymentFailed';
  data: { paymentId: string; reason: string; failedAt: string };
};

export type PaymentExpired = {
  type: 'PaymentExpired';
  data: { paymentId: string; expiredAt: string };
};

export type RefundRequested = {
  type: 'RefundRequested';
  data: { paymentId: string; refundId: string; amount: number; requestedAt: string };
};

export type RefundSucceeded = {
  type: 'RefundSucceeded';
  data: { paymentId: string; refundId: string; succeededAt: string };
};

export type RefundFailed = {
  type: 'RefundFailed';
  data: { paymentId: string; refundId: string; reason: string; failedAt: string };
};

export type PaymentEvent =
  | PaymentCreated
  | PaymentMethodChosen
  | PaymentSessionFound
  | PaymentSucceeded
  | PaymentFailed
  | PaymentExpired
  | RefundRequested
  | RefundSucceeded
  | RefundFailed;

export type PaymentEventType = PaymentEvent['type'];

export const PAYMENT_EVENT_TYPES: readonly PaymentEventType[] = [
  'PaymentCreated',
  'PaymentMethodChosen',
  'PaymentSessionFound',
  'PaymentSucceeded',
  'PaymentFailed',
  'PaymentExpired',
  'RefundRequested',
  'RefundSucceeded',
  'RefundFailed',
];

export const PAYMENT_STREAM_PREFIX = 'payment-';
export const paymentStream = (paymentId: string): string => `${PAYMENT_STREAM_PREFIX}${paymentId}`;
