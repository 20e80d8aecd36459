import type { PaymentLookup, ProviderPaymentStatus } from '../payment-provider';
import { isRecord } from '@xaalis/kernel';
import { stringOrNull } from '@xaalis/provider-http';

/**
 * An Orange Money (Sonatel) transaction, as the transaction search and the merchant callback
 * carry it: `{transactionId, reference, status, type, amount: {value, unit}, metadata,
 * customer, partner, …}`. Only SUCCESS collects money; CANCELLED, FAILED and REJECTED are final;
 * every other state (INITIATED, PENDING, ACCEPTED, PRE_INITIATED…) is on its way, and Sonatel
 * settles it within a day.
 */
export interface OrangeTransaction {
  transactionId: string | null;
  /** Our payment id: the `reference` we gave the QR code, else `metadata.paymentId`. */
  paymentId: string | null;
  status: string;
  type: string | null;
  amount: number | null;
}

export type OrangeOutcome = 'succeeded' | 'failed' | 'pending';

const FINAL_FAILURES = new Set(['FAILED', 'CANCELLED', 'REJECTED']);

export function orangeOutcome(status: string): OrangeOutcome {
  const upper = status.toUpperCase();
  if (upper === 'SUCCESS') return 'succeeded';
  if (FINAL_FAILURES.has(upper)) return 'failed';
  // An unlisted state is never guessed to be a failure: it stays pending and is asked again.
  return 'pending';
}

export function readOrangeTransaction(value: unknown): OrangeTransaction | null {
  if (!isRecord(value)) return null;
  const status = stringOrNull(value['status']);
  if (status === null) return null;
  const metadata = value['metadata'];
  return {
    transactionId: stringOrNull(value['transactionId']),
    paymentId:
      stringOrNull(value['reference']) ??
      (isRecord(metadata) ? stringOrNull(metadata['paymentId']) : null),
    status,
    type: stringOrNull(value['type']),
    amount: readAmount(value['amount']),
  };
}

/** `{value: 1500, unit: "XOF"}`; Sonatel sends the value as a float (`10.0`) or a string. */
function readAmount(value: unknown): number | null {
  const raw = isRecord(value) ? value['value'] : value;
  const amount = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  return typeof amount === 'number' && Number.isSafeInteger(amount) ? amount : null;
}

/** Ours: a merchant payment (other types, e.g. a cash-in, go to the same callback URL). */
export function isMerchantPayment(transaction: OrangeTransaction): boolean {
  return transaction.type === null || transaction.type === 'MERCHANT_PAYMENT';
}

/**
 * What the transactions found for a payment say. An unpaid QR code has no transaction at all, so
 * an empty search means pending when we know the QR code was created, and not found otherwise.
 */
export function orangeLookupStatus(
  lookup: PaymentLookup,
  found: OrangeTransaction[],
): ProviderPaymentStatus {
  const ours = found.filter((t) => t.paymentId === lookup.paymentId && isMerchantPayment(t));
  const paid = ours.find((t) => orangeOutcome(t.status) === 'succeeded');
  if (paid !== undefined) {
    const providerReference = lookup.providerReference ?? paid.transactionId;
    if (providerReference === null) {
      return { status: 'unknown', reason: 'Orange Money success without a transaction id' };
    }
    return {
      status: 'succeeded',
      providerReference,
      transactionId: paid.transactionId,
      amount: paid.amount,
    };
  }
  if (ours.some((t) => orangeOutcome(t.status) === 'pending')) {
    return { status: 'pending', providerReference: lookup.providerReference, redirectUrl: null };
  }
  const failed = ours.find((t) => orangeOutcome(t.status) === 'failed');
  if (failed !== undefined) {
    return {
      status: 'failed',
      providerReference: lookup.providerReference,
      reason: failed.status.toLowerCase(),
    };
  }
  return lookup.providerReference === null
    ? { status: 'not_found' }
    : { status: 'pending', providerReference: lookup.providerReference, redirectUrl: null };
}
