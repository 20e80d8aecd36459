import { DomainError } from '@xaalis/kernel';
import type { Hold } from '@xaalis/ledger-domain';

/**
 * The balance CHECK refusing the hold, as the client error it is (with what it needed, not the
 * ledger's own names for it); null for anything else.
 */
export function insufficientFunds(
  error: unknown,
  hold: Pick<Required<Hold>, 'ref' | 'amount' | 'fee'>,
): DomainError | null {
  const pg = error as { code?: unknown; constraint?: unknown } | null;
  if (pg?.code !== '23514' || pg.constraint !== 'ledger_available_not_negative') return null;
  return new DomainError(
    'insufficient_funds',
    'The available balance does not cover this amount.',
    { amount: hold.amount, fee: hold.fee, required: hold.amount + hold.fee },
  );
}
