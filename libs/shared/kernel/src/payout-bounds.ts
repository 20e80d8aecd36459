import { CUSTOMER_PROVIDERS, type CustomerProvider } from './payment-bounds';

/**
 * What an agent wallet and a payout may be (spec 4.3 and 8, CONTRACT 2 and 5), for the gateway's
 * DTOs, the payouts messages and the deciders alike.
 */

/** Spec 8: `max_payout_amount` and `max_daily_amount`, whole XOF. */
export const MIN_WALLET_AMOUNT = 1;
export const MAX_WALLET_AMOUNT = 100_000_000;

/** Spec 8: the wallet's `name`, counted in characters (code points), as the edge counts them. */
export const WALLET_NAME_MIN_LENGTH = 2;
export const WALLET_NAME_MAX_LENGTH = 120;

/** Spec 8: `allowed_recipient_phones`, 1 to 20 numbers matching `PHONE_PATTERN`. */
export const MIN_ALLOWED_RECIPIENTS = 1;
export const MAX_ALLOWED_RECIPIENTS = 20;

/**
 * `action_id` (spec 4.3 gives no bound): 1 to 100 characters, so that it can stand as the payout's
 * `client_reference` (CONTRACT: 1 to 100 chars in the wallet payout list filter).
 */
export const ACTION_ID_MAX_LENGTH = 100;
export const RECIPIENT_NAME_MAX_LENGTH = 100;

/** Spec 2.6: a wallet pays out with one of the two real providers, never `mock`. */
export const WALLET_PROVIDERS = CUSTOMER_PROVIDERS;
export type WalletProvider = CustomerProvider;

/** Spec 3.5. */
export const AGENT_WALLET_STATUSES = ['active', 'disabled'] as const;
export type AgentWalletStatus = (typeof AGENT_WALLET_STATUSES)[number];

/** Spec 3.4. */
export const PAYOUT_STATUSES = ['pending', 'processing', 'succeeded', 'failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** CONTRACT 2: `details.rule` of a `policy_violation`. */
export const POLICY_RULES = [
  'recipient_not_allowed',
  'max_payout_amount',
  'max_daily_amount',
  'wallet_disabled',
] as const;
export type PolicyRule = (typeof POLICY_RULES)[number];

/** `failure_reason` values the service itself writes; a provider may give others. */
export const PAYOUT_FAILURE_REASONS = {
  /** CONTRACT 6: the magic number `+221700000002`, or the provider refusing the recipient. */
  recipientRefused: 'recipient_refused',
  /** Wave reversed a payout it had reported sent (issue 19, item 5). */
  reversed: 'reversed',
} as const;
