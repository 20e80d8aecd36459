import type { WaveConfig } from '@xaalis/config';
import { DomainError } from '@xaalis/kernel';
import { callProvider, type FetchFn, type ProviderResponse } from './provider-http';
import type { ProviderOptions } from './provider-options';

/**
 * Wave's HTTP API as both contexts call it: the bearer key, JSON in and out, and the
 * `Idempotency-Key` that makes a repeated request return Wave's first answer. What an answer means
 * (a checkout, a refund, a payout) stays in each context's adapter.
 */
export class WaveApi {
  private readonly fetchFn: FetchFn;

  /** `service` names what the missing key disables, e.g. 'Wave payments' or 'Wave payouts'. */
  constructor(
    private readonly config: WaveConfig,
    private readonly options: ProviderOptions,
    private readonly service: string,
  ) {
    this.fetchFn = options.fetch ?? fetch;
  }

  /** The API key, or `unavailable` when this service was started without one. */
  apiKey(): string {
    const apiKey = this.config.apiKey;
    if (apiKey === undefined) {
      throw new DomainError('unavailable', `${this.service} are not available on this service.`);
    }
    return apiKey;
  }

  call(
    apiKey: string,
    method: 'GET' | 'POST',
    path: string,
    extra: { body?: Record<string, string>; idempotencyKey?: string } = {},
  ): Promise<ProviderResponse> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${apiKey}`,
      accept: 'application/json',
    };
    if (extra.body !== undefined) headers['content-type'] = 'application/json';
    if (extra.idempotencyKey !== undefined) headers['idempotency-key'] = extra.idempotencyKey;
    return callProvider(this.fetchFn, {
      method,
      url: `${this.config.apiBaseUrl}${path}`,
      headers,
      body: extra.body === undefined ? undefined : JSON.stringify(extra.body),
      timeoutMs: this.options.timeoutMs,
    });
  }
}
