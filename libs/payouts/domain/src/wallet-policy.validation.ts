import {
  AGENT_WALLET_STATUSES,
  MAX_ALLOWED_RECIPIENTS,
  MAX_WALLET_AMOUNT,
  MIN_ALLOWED_RECIPIENTS,
  MIN_WALLET_AMOUNT,
  PHONE_PATTERN,
  WALLET_NAME_MAX_LENGTH,
  WALLET_NAME_MIN_LENGTH,
  WALLET_PROVIDERS,
  validationError,
  type FieldIssue,
} from '@xaalis/kernel';
import type { WalletPolicy } from './agent-wallet.events';

/**
 * The bounds of spec 4.3 and 8 checked again in the domain: the gateway's DTOs check them first,
 * but a bus message or a replayed command must not write a policy the edge would refuse.
 * Issues are named by the API's field names, as the edge names them.
 */
export const characters = (text: string): number => [...text].length;

const isWalletAmount = (value: unknown): value is number =>
  typeof value === 'number' &&
  Number.isSafeInteger(value) &&
  value >= MIN_WALLET_AMOUNT &&
  value <= MAX_WALLET_AMOUNT;

const AMOUNT_ISSUE = `must be an integer from ${MIN_WALLET_AMOUNT} to ${MAX_WALLET_AMOUNT}`;

export function policyIssues(policy: Partial<WalletPolicy> & { provider?: string }): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const check = (ok: boolean, field: string, issue: string) => {
    if (!ok) issues.push({ field, issue });
  };
  if (policy.name !== undefined) {
    const length = typeof policy.name === 'string' ? characters(policy.name) : -1;
    check(
      length >= WALLET_NAME_MIN_LENGTH && length <= WALLET_NAME_MAX_LENGTH,
      'name',
      `must be ${WALLET_NAME_MIN_LENGTH} to ${WALLET_NAME_MAX_LENGTH} characters`,
    );
  }
  if (policy.provider !== undefined) {
    check(
      (WALLET_PROVIDERS as readonly string[]).includes(policy.provider),
      'provider',
      `must be one of ${WALLET_PROVIDERS.join(', ')}`,
    );
  }
  if (policy.maxPayoutAmount !== undefined) {
    check(isWalletAmount(policy.maxPayoutAmount), 'max_payout_amount', AMOUNT_ISSUE);
  }
  if (policy.maxDailyAmount !== undefined && policy.maxDailyAmount !== null) {
    check(isWalletAmount(policy.maxDailyAmount), 'max_daily_amount', AMOUNT_ISSUE);
  }
  if (policy.allowedRecipientPhones !== undefined) {
    const phones = policy.allowedRecipientPhones;
    if (
      !Array.isArray(phones) ||
      phones.length < MIN_ALLOWED_RECIPIENTS ||
      phones.length > MAX_ALLOWED_RECIPIENTS
    ) {
      check(
        false,
        'allowed_recipient_phones',
        `must hold ${MIN_ALLOWED_RECIPIENTS} to ${MAX_ALLOWED_RECIPIENTS} phone numbers`,
      );
    } else {
      phones.forEach((phone, index) => {
        const field = `allowed_recipient_phones[${index}]`;
        if (typeof phone !== 'string' || !PHONE_PATTERN.test(phone)) {
          check(false, field, `must match ${PHONE_PATTERN.source}`);
        } else if (phones.indexOf(phone) !== index) {
          // Refused rather than silently merged: the caller sees the list it sent, or a 400.
          check(false, field, 'repeats an earlier phone number');
        }
      });
    }
  }
  if (policy.status !== undefined) {
    check(
      (AGENT_WALLET_STATUSES as readonly string[]).includes(policy.status),
      'status',
      `must be one of ${AGENT_WALLET_STATUSES.join(', ')}`,
    );
  }
  return issues;
}

export function assertValidPolicy(policy: Partial<WalletPolicy> & { provider?: string }): void {
  const issues = policyIssues(policy);
  if (issues.length > 0) throw validationError(issues);
}
