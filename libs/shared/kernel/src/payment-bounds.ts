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
