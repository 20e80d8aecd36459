import type { ProviderPaymentStatus } from '../payment-provider';
import { isRecord } from '@xaalis/kernel';
import { stringOrNull } from '@xaalis/provider-http';

/**
 * A Wave checkout session as the Checkout API returns it (the fields we read). Amounts are
 * decimal strings ("1500"); `checkout_status` is open, complete or expired; `payment_status` is
 * processing, cancelled or succeeded. A failed attempt leaves the session open with
 * `last_payment_error` set: the customer may try again until it expires.
 */
export interface WaveSession {
  id: string;
  amount: string | null;
  checkoutStatus: string | null;
  paymentStatus: string | null;
  clientReference: string | null;
  transactionId: string | null;
  launchUrl: string | null;
  whenCreated: string | null;
  lastPaymentErrorCode: string | null;
}

export function readWaveSession(value: unknown): WaveSession | null {
  if (!isRecord(value)) return null;
  const id = stringOrNull(value['id']);
  if (id === null) return null;
  const error = value['last_payment_error'];
  return {
    id,
    amount:
      typeof value['amount'] === 'number' ? String(value['amount']) : stringOrNull(value['amount']),
    checkoutStatus: stringOrNull(value['checkout_status']),
    paymentStatus: stringOrNull(value['payment_status']),
    clientReference: stringOrNull(value['client_reference']),
    transactionId: stringOrNull(value['transaction_id']),
    launchUrl: stringOrNull(value['wave_launch_url']),
    whenCreated: stringOrNull(value['when_created']),
    lastPaymentErrorCode: isRecord(error) ? stringOrNull(error['code']) : stringOrNull(error),
  };
}

/** "1500" → 1500; anything that is not a whole XOF amount → null. */
export function parseWaveAmount(amount: string | null): number | null {
  if (amount === null || !/^\d+(\.0+)?$/.test(amount)) return null;
  const value = Number(amount);
  return Number.isSafeInteger(value) ? value : null;
}

export function waveSessionStatus(session: WaveSession): ProviderPaymentStatus {
  if (session.paymentStatus === 'succeeded') {
    return {
      status: 'succeeded',
      providerReference: session.id,
      transactionId: session.transactionId,
      amount: parseWaveAmount(session.amount),
    };
  }
  if (session.checkoutStatus === 'expired') {
    return { status: 'failed', providerReference: session.id, reason: 'expired' };
  }
  if (session.paymentStatus === 'cancelled') {
    return { status: 'failed', providerReference: session.id, reason: 'cancelled' };
  }
  if (session.checkoutStatus === 'open') {
    return { status: 'pending', providerReference: session.id, redirectUrl: session.launchUrl };
  }
  return {
    status: 'unknown',
    reason: `unexpected Wave session state ${session.checkoutStatus ?? '?'}/${session.paymentStatus ?? '?'}`,
  };
}

/**
 * Several sessions may carry one client reference (a new attempt after an expiry): the paid one
 * wins, then an open one, then the newest.
 */
export function pickWaveSession(sessions: WaveSession[]): WaveSession | null {
  const rank = (session: WaveSession): number =>
    session.paymentStatus === 'succeeded' ? 0 : session.checkoutStatus === 'open' ? 1 : 2;
  const sorted = [...sessions].sort(
    (a, b) => rank(a) - rank(b) || (b.whenCreated ?? '').localeCompare(a.whenCreated ?? ''),
  );
  return sorted[0] ?? null;
}
