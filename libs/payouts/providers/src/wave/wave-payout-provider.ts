import type { WaveConfig } from '@xaalis/config';
import { isRecord } from '@xaalis/kernel';
import {
  assertXofAmount,
  describeAnswer,
  isDefinitiveRefusal,
  isSuccess,
  stringOrNull,
  WaveApi,
  type ProviderOptions,
} from '@xaalis/provider-http';
import type {
  LivePayoutProvider,
  PayoutLookup,
  PayoutProviderStatus,
  SendPayout,
} from '../payout-provider';
import { pickWavePayout, readWavePayout, wavePayoutStatus, type WavePayout } from './wave-payout';

/**
 * Wave's Payout API (`POST /v1/payout`, `GET /v1/payout/{id}`,
 * `GET /v1/payouts/search?client_reference=…`), with the same API key and base URL as checkouts.
 *
 * Never twice: every `send` of a payout carries the payout's `Idempotency-Key`, and Wave answers a
 * repeated key with the first payout. A 4xx is Wave's definitive no and fails the payout with
 * Wave's error code as the reason, except:
 * - 408 and 429, which may pass later (`unknown`);
 * - `idempotency-mismatch` (409), which says Wave already has a payout under this key: it is
 *   `unknown`, left to the lookup by client reference, because failing it could release money
 *   that went out.
 */
export class WavePayoutProvider implements LivePayoutProvider {
  readonly name = 'wave' as const;
  private readonly api: WaveApi;

  constructor(config: WaveConfig, options: ProviderOptions) {
    this.api = new WaveApi(config, options, 'Wave payouts');
  }

  async send(input: SendPayout): Promise<PayoutProviderStatus> {
    const apiKey = this.api.apiKey();
    assertXofAmount('amount', input.amount);
    const body: Record<string, string> = {
      currency: 'XOF',
      receive_amount: String(input.amount),
      mobile: input.recipientPhone,
      client_reference: input.payoutId,
    };
    if (input.recipientName !== null) body['name'] = input.recipientName;
    const response = await this.api.call(apiKey, 'POST', '/v1/payout', {
      body,
      idempotencyKey: input.idempotencyKey,
    });
    if (response.kind === 'no_answer') return { status: 'unknown', reason: response.reason };
    if (isSuccess(response.status)) return this.statusOf(readWavePayout(response.json));
    const code = isRecord(response.json) ? stringOrNull(response.json['code']) : null;
    if (!isDefinitiveRefusal(response.status) || code === 'idempotency-mismatch') {
      return { status: 'unknown', reason: describeAnswer('wave', response.status, response.json) };
    }
    return {
      status: 'failed',
      providerReference: null,
      reason: code ?? describeAnswer('wave', response.status, response.json),
    };
  }

  async lookup(input: PayoutLookup): Promise<PayoutProviderStatus> {
    const apiKey = this.api.apiKey();
    if (input.providerReference === null) return this.searchByClientReference(apiKey, input);
    const response = await this.api.call(
      apiKey,
      'GET',
      `/v1/payout/${encodeURIComponent(input.providerReference)}`,
    );
    if (response.kind === 'no_answer') return { status: 'unknown', reason: response.reason };
    if (response.status === 404) return { status: 'not_found' };
    if (!isSuccess(response.status)) {
      return { status: 'unknown', reason: describeAnswer('wave', response.status, response.json) };
    }
    const payout = readWavePayout(response.json);
    if (payout !== null && payout.clientReference !== input.payoutId) {
      return { status: 'unknown', reason: 'the Wave payout belongs to another client reference' };
    }
    return this.statusOf(payout);
  }

  private async searchByClientReference(
    apiKey: string,
    input: PayoutLookup,
  ): Promise<PayoutProviderStatus> {
    const response = await this.api.call(
      apiKey,
      'GET',
      `/v1/payouts/search?client_reference=${encodeURIComponent(input.payoutId)}`,
    );
    if (response.kind === 'no_answer') return { status: 'unknown', reason: response.reason };
    if (!isSuccess(response.status)) {
      return { status: 'unknown', reason: describeAnswer('wave', response.status, response.json) };
    }
    const result = isRecord(response.json) ? response.json['result'] : undefined;
    if (!Array.isArray(result))
      return { status: 'unknown', reason: 'unreadable Wave search result' };
    const payouts = result.map(readWavePayout);
    // One unreadable entry may be the transfer itself: better unknown than a wrong answer.
    if (payouts.some((payout) => payout === null)) {
      return { status: 'unknown', reason: 'unreadable Wave payout' };
    }
    const ours = (payouts as WavePayout[]).filter((p) => p.clientReference === input.payoutId);
    const payout = pickWavePayout(ours);
    return payout === null ? { status: 'not_found' } : wavePayoutStatus(payout);
  }

  private statusOf(payout: WavePayout | null): PayoutProviderStatus {
    return payout === null
      ? { status: 'unknown', reason: 'unreadable Wave payout' }
      : wavePayoutStatus(payout);
  }
}
