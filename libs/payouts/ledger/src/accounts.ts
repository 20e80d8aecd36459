/**
 * Ledger accounts of one merchant in one mode. Every ledger transaction is a set of entries whose
 * amounts sum to zero (double entry); a merchant's balance is the sum of its accounts' entries.
 */
export const LEDGER_ACCOUNTS = {
  /** Money the merchant can pay out or refund from. Never below zero. */
  available: 'merchant_available',
  /** Money on its way: payouts in flight, refunds not yet settled. */
  pending: 'merchant_pending',
} as const;
