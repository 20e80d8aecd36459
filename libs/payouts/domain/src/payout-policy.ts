import { DomainError, validationError, type FieldIssue, type PolicyRule } from '@xaalis/kernel';
import type { PayoutRequest } from './agent-wallet.commands';
import { countingDay, spentOn, type AgentWallet } from './agent-wallet.state';
import { dakarDay } from './dakar-day';
import { payoutFee, type PayoutFeeSchedule } from './payout-fee';
import { payoutBodyIssues } from './payout-request.validation';

/** CONTRACT 2: 402 `policy_violation` with `details.rule`, and what the rule compared. */
export const policyViolation = (
  rule: PolicyRule,
  message: string,
  details: Record<string, unknown> = {},
): DomainError => new DomainError('policy_violation', message, { rule, ...details });

/**
 * The fingerprint of a payout request under its `action_id`: the same body is a retry (the
 * original payout again), another is a 409 `idempotency_conflict` (CONTRACT 3). Omitted currency
 * and `XOF` are the same request.
 */
export const payoutRequestKey = (request: PayoutRequest): string =>
  JSON.stringify([
    request.amount,
    request.currency ?? 'XOF',
    request.recipient.phone,
    request.recipient.name,
  ]);

export const payoutRequestIssues = (request: PayoutRequest): FieldIssue[] =>
  payoutBodyIssues({ ...request, reference: request.actionId }, 'action_id');

/** What an accepted payout comes to. */
export interface PayoutJudgement {
  fee: number;
  /** The Dakar day whose cap it counts against. */
  day: string;
}

/**
 * The wallet's spending rules, fail-closed, in the order a caller can act on: a disabled wallet
 * refuses everything; then the allowlist, the per-payout cap, the Dakar-day cap (the day's
 * pending, processing and succeeded payouts plus this one), and last the funds (amount + fee).
 * Pure, so the application may ask it before touching the ledger; the decision that counts is
 * the one `RequestPayout` makes on the state it appends to.
 */
export function judgePayout(
  wallet: AgentWallet,
  request: PayoutRequest,
  fees: PayoutFeeSchedule,
  available: number | null,
  now: Date,
): PayoutJudgement {
  const issues = payoutRequestIssues(request);
  if (issues.length > 0) throw validationError(issues);
  if (wallet.status !== 'active') {
    throw policyViolation('wallet_disabled', 'This agent wallet is disabled.');
  }
  if (!wallet.allowedRecipientPhones.includes(request.recipient.phone)) {
    throw policyViolation(
      'recipient_not_allowed',
      "The recipient is not on this wallet's allowlist.",
    );
  }
  if (request.amount > wallet.maxPayoutAmount) {
    throw policyViolation('max_payout_amount', "The amount is above this wallet's payout cap.", {
      max_payout_amount: wallet.maxPayoutAmount,
    });
  }
  const day = countingDay(wallet, dakarDay(now));
  const spent = spentOn(wallet, day);
  if (wallet.maxDailyAmount !== null && spent + request.amount > wallet.maxDailyAmount) {
    throw policyViolation('max_daily_amount', "The amount is above what is left of today's cap.", {
      max_daily_amount: wallet.maxDailyAmount,
      spent_today: spent,
    });
  }
  const fee = payoutFee(request.amount, fees[wallet.provider]);
  if (available !== null && request.amount + fee > available) {
    throw new DomainError(
      'insufficient_funds',
      'The available balance does not cover the amount and its fee.',
      { amount: request.amount, fee },
    );
  }
  return { fee, day };
}
