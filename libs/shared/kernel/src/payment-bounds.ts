/**
 * What a payment may be, shared by the gateway's DTOs, the payments messages and the payment
 * decider, so that the edge, the bus and the domain hold to one definition (spec 8).
 */

/** The largest payment or refund, in XOF (whole francs); the smallest is 1. */
export const MAX_PAYMENT_AMOUNT = 100_000_000;

/** The providers a customer pays with. */
export const CUSTOMER_PROVIDERS = ['wave', 'orange_money'] as const;
export type CustomerProvider = (typeof CUSTOMER_PROVIDERS)[number];

/** A payment's provider as answers show it: `mock` is a test-mode payment settled without one. */
export const PAYMENT_PROVIDERS = [...CUSTOMER_PROVIDERS, 'mock'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

/** The only currency: amounts are whole XOF francs. */
export const CURRENCIES = ['XOF'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** Spec 2.1: where a payment is in its life. */
export const PAYMENT_STATUSES = [
  'requires_payment_method',
  'processing',
  'succeeded',
  'failed',
  'expired',
  'refunded',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** CONTRACT 5: where a refund is in its life. */
export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Spec 8: a Senegalese mobile number in international form. */
export const PHONE_PATTERN = /^\+2217[0-9]{8}$/;

/** Spec 4.1: the longest texts a merchant gives with a payment. */
export const PAYMENT_DESCRIPTION_MAX_LENGTH = 200;
export const CLIENT_REFERENCE_MAX_LENGTH = 100;
export const CUSTOMER_NAME_MAX_LENGTH = 100;
