import {
  ACTION_ID_MAX_LENGTH,
  PHONE_PATTERN,
  RECIPIENT_NAME_MAX_LENGTH,
  type FieldIssue,
} from '@xaalis/kernel';
import type { Recipient } from './agent-wallet.events';
import { characters } from './wallet-policy.validation';

/** What every payout's body holds, made by an agent through its wallet or by another context. */
export interface PayoutBody {
  /** The agent's `action_id`, or the calling context's `client_reference`. */
  reference: string;
  amount: number;
  /** Omitted is XOF, the only currency. */
  currency: string | null;
  recipient: Recipient;
}

/**
 * The bounds of spec 4.3 checked again in the domain, as `policyIssues` does for a wallet's: the
 * edge checks them first, but a bus message or a replayed command must not make a payout the
 * edge would refuse. `referenceField` names the reference as the caller's API does.
 */
export function payoutBodyIssues(
  body: PayoutBody,
  referenceField: 'action_id' | 'client_reference',
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const check = (ok: boolean, field: string, issue: string) => {
    if (!ok) issues.push({ field, issue });
  };
  const referenceLength = typeof body.reference === 'string' ? characters(body.reference) : 0;
  check(
    referenceLength >= 1 && referenceLength <= ACTION_ID_MAX_LENGTH,
    referenceField,
    `must be 1 to ${ACTION_ID_MAX_LENGTH} characters`,
  );
  check(
    Number.isSafeInteger(body.amount) && body.amount >= 1,
    'amount',
    'must be a positive integer (XOF)',
  );
  check(body.currency === null || body.currency === 'XOF', 'currency', 'must be XOF');
  check(
    typeof body.recipient.phone === 'string' && PHONE_PATTERN.test(body.recipient.phone),
    'recipient.phone',
    `must match ${PHONE_PATTERN.source}`,
  );
  const name = body.recipient.name;
  if (name !== null) {
    const length = typeof name === 'string' ? characters(name) : 0;
    check(
      length >= 1 && length <= RECIPIENT_NAME_MAX_LENGTH,
      'recipient.name',
      `must be 1 to ${RECIPIENT_NAME_MAX_LENGTH} characters`,
    );
  }
  return issues;
}
