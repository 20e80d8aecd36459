import { isRecord } from '@xaalis/kernel';
import { stringOrNull } from '@xaalis/provider-http';
import type { PayoutProviderStatus } from '../payout-provider';

/**
 * A payout as Wave's Payout API returns it (`POST /v1/payout`, `GET /v1/payout/{id}`, the search):
 * `{ id, status, client_reference, payout_error: { error_code, error_message } | null, … }`.
 */
export interface WavePayout {
  id: string;
  status: string;
  clientReference: string | null;
  errorCode: string | null;
}

export function readWavePayout(value: unknown): WavePayout | null {
  if (!isRecord(value)) return null;
  const id = stringOrNull(value['id']);
  const status = stringOrNull(value['status']);
  if (id === null || status === null) return null;
  const error = value['payout_error'];
  return {
    id,
    status,
    clientReference: stringOrNull(value['client_reference']),
    errorCode: isRecord(error) ? stringOrNull(error['error_code']) : null,
  };
}

export function wavePayoutStatus(payout: WavePayout): PayoutProviderStatus {
  switch (payout.status) {
    case 'processing':
      return { status: 'processing', providerReference: payout.id };
    case 'succeeded':
      return { status: 'succeeded', providerReference: payout.id };
    case 'failed':
      return {
        status: 'failed',
        providerReference: payout.id,
        reason: payout.errorCode ?? 'payout-failed',
      };
    case 'reversed':
      return { status: 'reversed', providerReference: payout.id };
    default:
      // A state Wave added since: never guessed to be a failure, asked again later.
      return { status: 'unknown', reason: `unknown Wave payout status ${payout.status}` };
  }
}

/**
 * The payout of a client reference among the search's results. Wave makes one per Idempotency-Key
 * and we send one key per payout, so there is at most one; should there be more, the one that
 * moved money wins over a failed one, so a payout is never failed while money went out.
 */
export function pickWavePayout(payouts: WavePayout[]): WavePayout | null {
  return payouts.find((payout) => payout.status !== 'failed') ?? payouts.at(-1) ?? null;
}
