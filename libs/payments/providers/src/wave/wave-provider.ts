import type { WaveConfig } from '@xaalis/config';
import { DomainError, isRecord } from '@xaalis/kernel';
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
  LivePaymentProvider,
  PaymentLookup,
  ProviderNotification,
  ProviderPaymentStatus,
  RefundRequest,
  RefundResult,
  StartCheckout,
  StartCheckoutResult,
} from '../payment-provider';
import { parseWaveNotification } from './wave-notification';
import {
  pickWaveSession,
  readWaveSession,
  waveSessionStatus,
  type WaveSession,
} from './wave-session';

/**
 * Wave through its Checkout API (`/v1/checkout/sessions`) and, for partial refunds, its Payout
 * API (`/v1/payout`).
 *
 * Refunds: Wave refunds a checkout only whole (`POST /v1/checkout/sessions/{id}/refund`). A
 * partial refund is therefore a payout of the amount to the customer's phone; without a known
 * phone it is refused rather than guessed.
 */
export class WaveProvider implements LivePaymentProvider {
  readonly name = 'wave' as const;
  private readonly api: WaveApi;

  constructor(
    private readonly config: WaveConfig,
    options: ProviderOptions,
  ) {
    this.api = new WaveApi(config, options, 'Wave payments');
  }

  async startCheckout(input: StartCheckout): Promise<StartCheckoutResult> {
    const apiKey = this.api.apiKey();
    assertXofAmount('amount', input.amount);
    const body: Record<string, string> = {
      amount: String(input.amount),
      currency: 'XOF',
      success_url: input.successUrl,
      error_url: input.errorUrl,
      client_reference: input.paymentId,
    };
    if (input.aggregatedMerchantId !== null) {
      body['aggregated_merchant_id'] = input.aggregatedMerchantId;
    }
    const response = await this.api.call(apiKey, 'POST', '/v1/checkout/sessions', {
      body,
      // A repeated start of the same payment (a redelivered command) gets the same session back.
      idempotencyKey: input.idempotencyKey ?? input.paymentId,
    });
    if (response.kind === 'no_answer') return { outcome: 'unknown', reason: response.reason };
    if (isSuccess(response.status)) {
      const session = readWaveSession(response.json);
      if (session === null || session.launchUrl === null) {
        return { outcome: 'unknown', reason: 'unreadable Wave checkout session' };
      }
      return { outcome: 'started', providerReference: session.id, redirectUrl: session.launchUrl };
    }
    const reason = describeAnswer('wave', response.status, response.json);
    return isDefinitiveRefusal(response.status)
      ? { outcome: 'refused', reason }
      : { outcome: 'unknown', reason };
  }

  async lookup(input: PaymentLookup): Promise<ProviderPaymentStatus> {
    const apiKey = this.api.apiKey();
    if (input.providerReference !== null) {
      const response = await this.api.call(
        apiKey,
        'GET',
        `/v1/checkout/sessions/${encodeURIComponent(input.providerReference)}`,
      );
      if (response.kind === 'no_answer') return { status: 'unknown', reason: response.reason };
      if (response.status === 404) return { status: 'not_found' };
      if (!isSuccess(response.status)) {
        return {
          status: 'unknown',
          reason: describeAnswer('wave', response.status, response.json),
        };
      }
      const session = readWaveSession(response.json);
      if (session === null)
        return { status: 'unknown', reason: 'unreadable Wave checkout session' };
      if (session.clientReference !== input.paymentId) {
        return {
          status: 'unknown',
          reason: 'the Wave session belongs to another client reference',
        };
      }
      return waveSessionStatus(session);
    }
    const found = await this.searchSessions(apiKey, input.paymentId);
    if ('unknown' in found) return { status: 'unknown', reason: found.unknown };
    const session = pickWaveSession(found.sessions);
    return session === null ? { status: 'not_found' } : waveSessionStatus(session);
  }

  parseNotification(input: {
    headers: Record<string, string | undefined>;
    rawBody: string;
    now: Date;
  }): ProviderNotification | null {
    const secret = this.config.webhookSecret;
    if (secret === undefined) {
      throw new DomainError('unavailable', 'Wave webhooks are not accepted by this service.');
    }
    return parseWaveNotification({ ...input, secret });
  }

  async refund(input: RefundRequest): Promise<RefundResult> {
    const apiKey = this.api.apiKey();
    assertXofAmount('amount', input.amount);
    if (input.amount > input.paymentAmount) {
      return { outcome: 'refused', reason: 'the refund is larger than the payment' };
    }
    return input.amount === input.paymentAmount
      ? this.refundCheckout(apiKey, input)
      : this.refundAsPayout(apiKey, input);
  }

  private async refundCheckout(apiKey: string, input: RefundRequest): Promise<RefundResult> {
    let sessionId = input.providerReference;
    if (sessionId === null) {
      const found = await this.searchSessions(apiKey, input.paymentId);
      if ('unknown' in found) return { outcome: 'unknown', reason: found.unknown };
      const paid = found.sessions.find((session) => session.paymentStatus === 'succeeded');
      if (paid === undefined) {
        return { outcome: 'refused', reason: 'no paid Wave checkout session for this payment' };
      }
      sessionId = paid.id;
    }
    const response = await this.api.call(
      apiKey,
      'POST',
      `/v1/checkout/sessions/${encodeURIComponent(sessionId)}/refund`,
      { idempotencyKey: input.refundId },
    );
    if (response.kind === 'no_answer') return { outcome: 'unknown', reason: response.reason };
    if (isSuccess(response.status)) return { outcome: 'succeeded', providerReference: sessionId };
    const reason = describeAnswer('wave', response.status, response.json);
    return isDefinitiveRefusal(response.status)
      ? { outcome: 'refused', reason }
      : { outcome: 'unknown', reason };
  }

  private async refundAsPayout(apiKey: string, input: RefundRequest): Promise<RefundResult> {
    if (input.customerPhone === null) {
      return {
        outcome: 'refused',
        reason:
          'Wave refunds only whole checkouts; a partial refund is a payout and needs the customer phone',
      };
    }
    const response = await this.api.call(apiKey, 'POST', '/v1/payout', {
      body: {
        currency: 'XOF',
        receive_amount: String(input.amount),
        mobile: input.customerPhone,
        client_reference: input.refundId,
      },
      idempotencyKey: input.refundId,
    });
    if (response.kind === 'no_answer') return { outcome: 'unknown', reason: response.reason };
    if (!isSuccess(response.status)) {
      const reason = describeAnswer('wave', response.status, response.json);
      return isDefinitiveRefusal(response.status)
        ? { outcome: 'refused', reason }
        : { outcome: 'unknown', reason };
    }
    const payout = isRecord(response.json) ? response.json : null;
    const id = payout === null ? null : stringOrNull(payout['id']);
    const status = payout === null ? null : payout['status'];
    if (id === null) return { outcome: 'unknown', reason: 'unreadable Wave payout' };
    switch (status) {
      case 'succeeded':
        return { outcome: 'succeeded', providerReference: id };
      case 'processing':
        return { outcome: 'pending', providerReference: id };
      case 'failed': {
        const error = payout?.['payout_error'];
        const code = isRecord(error) ? stringOrNull(error['error_code']) : null;
        return { outcome: 'refused', reason: `Wave payout failed (${code ?? 'no error code'})` };
      }
      default:
        return { outcome: 'unknown', reason: 'unreadable Wave payout status' };
    }
  }

  private async searchSessions(
    apiKey: string,
    paymentId: string,
  ): Promise<{ sessions: WaveSession[] } | { unknown: string }> {
    const response = await this.api.call(
      apiKey,
      'GET',
      `/v1/checkout/sessions/search?client_reference=${encodeURIComponent(paymentId)}`,
    );
    if (response.kind === 'no_answer') return { unknown: response.reason };
    if (!isSuccess(response.status)) {
      return { unknown: describeAnswer('wave', response.status, response.json) };
    }
    const result = isRecord(response.json) ? response.json['result'] : undefined;
    if (!Array.isArray(result)) return { unknown: 'unreadable Wave search result' };
    const sessions = result
      .map(readWaveSession)
      .filter((session): session is WaveSession => session !== null)
      .filter((session) => session.clientReference === paymentId);
    return { sessions };
  }
}
