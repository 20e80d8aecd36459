import { isRecord } from '@xaalis/kernel';
import { stringOrNull } from '@xaalis/provider-http';
import type { PayoutProviderStatus } from '../payout-provider';

/**
 * A cash-in as Sonatel's cash-in answer and transaction search carry it (assumed to be the same
 * transaction shape as a merchant payment's: `{ transactionId, type, status, reference, … }`).
 */
export interface OrangeCashIn {
  transactionId: string | null;
  reference: string | null;
  type: string | null;
  status: string;
}

export function readOrangeCashIn(value: unknown): OrangeCashIn | null {
  if (!isRecord(value)) return null;
  const status = stringOrNull(value['status']);
  if (status === null) return null;
  return {
    transactionId: stringOrNull(value['transactionId']),
    reference: stringOrNull(value['reference']),
    type: stringOrNull(value['type']),
    status,
  };
}

/** Ours: a cash-in with the payout's reference (a merchant payment may share the search). */
export function isCashInOf(payoutId: string, transaction: OrangeCashIn): boolean {
  return (
    transaction.reference === payoutId &&
    (transaction.type === null || transaction.type === 'CASHIN')
  );
}

const FAILED = new Set(['FAILED', 'REJECTED', 'CANCELLED']);

/**
 * SUCCESS is money sent; FAILED, REJECTED and CANCELLED are final refusals; every other state
 * (PENDING, INITIATED, one Sonatel adds later) is on its way and asked again, never guessed a failure.
 */
export function orangeCashInStatus(transaction: OrangeCashIn): PayoutProviderStatus {
  const status = transaction.status.toUpperCase();
  if (status === 'SUCCESS') {
    return transaction.transactionId === null
      ? { status: 'unknown', reason: 'Orange Money cash-in success without a transaction id' }
      : { status: 'succeeded', providerReference: transaction.transactionId };
  }
  if (FAILED.has(status)) {
    return {
      status: 'failed',
      providerReference: transaction.transactionId,
      reason: `Orange Money cash-in ${status}`,
    };
  }
  return { status: 'processing', providerReference: transaction.transactionId };
}

/** The one that moved money (or may still) wins over a failed one, as for Wave. */
export function pickOrangeCashIn(
  found: OrangeCashIn[],
  providerReference: string | null,
): OrangeCashIn | null {
  const known = found.find(
    (t) => providerReference !== null && t.transactionId === providerReference,
  );
  return known ?? found.find((t) => !FAILED.has(t.status.toUpperCase())) ?? found.at(-1) ?? null;
}
