/**
 * Ledger accounts of one merchant in one mode. Every ledger transaction is a set of entries whose
 * amounts sum to zero (double entry), so the balances of a merchant's accounts also sum to zero.
 *
 * Signs: a positive balance is money the account has received. `provider_clearing` is the one
 * that runs negative: it gives out what the providers collected, so minus its balance is what
 * the collected money became (available + pending + fees + refunds + payouts).
 */
export const LEDGER_ACCOUNTS = {
  /** What the merchant can pay out or refund from. Never below zero (a CHECK in the database). */
  available: 'merchant_available',
  /** Held from `available` for refunds and payouts in flight, until settled or released. */
  pending: 'merchant_pending',
  /** Collected from customers at the providers (Wave, Orange Money): debited by each payment. */
  providerClearing: 'provider_clearing',
  /** The platform's fees: on payments, and on payouts once they settle. */
  platformFees: 'platform_fees',
  /** Paid back to customers by settled refunds. */
  customerRefunds: 'customer_refunds',
  /** Paid out to recipients by settled payouts. */
  payoutsSent: 'payouts_sent',
} as const;

export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[keyof typeof LEDGER_ACCOUNTS];

/** Where a settled hold's money goes. */
export const SETTLEMENT_ACCOUNTS = [
  LEDGER_ACCOUNTS.customerRefunds,
  LEDGER_ACCOUNTS.payoutsSent,
] as const;

export type SettlementAccount = (typeof SETTLEMENT_ACCOUNTS)[number];

export const isSettlementAccount = (value: unknown): value is SettlementAccount =>
  (SETTLEMENT_ACCOUNTS as readonly unknown[]).includes(value);
