import type { OrangeMoneyConfig } from '@xaalis/config';
import { DomainError, systemClock } from '@xaalis/kernel';
import { OrangeMoneyTokens } from './orange-money-token';
import {
  callProvider,
  describeAnswer,
  isSuccess,
  type FetchFn,
  type ProviderResponse,
} from './provider-http';
import type { ProviderOptions } from './provider-options';

export interface OrangeMoneyCredentials {
  clientId: string;
  clientSecret: string;
  merchantCode: string;
}

/**
 * A call's answer, or `token_refused`: the token endpoint said no for good (wrong credentials),
 * so the call was never made. What that means is the caller's: a refused checkout for a payment,
 * no answer about a transfer for a payout.
 */
export type OrangeMoneyResponse = ProviderResponse | { kind: 'token_refused'; reason: string };

/**
 * Sonatel's transactions under one reference, as it sent them (each adapter reads the kind it
 * made), or why there is no answer to read: the question is asked again later.
 */
export type OrangeMoneySearch =
  { kind: 'found'; transactions: unknown[] } | { kind: 'unknown'; reason: string };

/**
 * Sonatel's Orange Money API as both contexts call it: the OAuth2 client-credentials token
 * (`POST /oauth/v1/token`), cached in one `OrangeMoneyTokens` per instance, and JSON calls made
 * with it. What an answer means (a QR code, a cash-in) stays in each context's adapter.
 */
export class OrangeMoneyApi {
  private readonly fetchFn: FetchFn;
  private readonly tokens: OrangeMoneyTokens;

  /** `service` names what missing credentials disable, e.g. 'Orange Money payments'. */
  constructor(
    private readonly config: OrangeMoneyConfig,
    private readonly options: ProviderOptions,
    private readonly service: string,
  ) {
    this.fetchFn = options.fetch ?? fetch;
    this.tokens = new OrangeMoneyTokens(() => this.requestToken(), options.clock ?? systemClock);
  }

  /** The credentials, or `unavailable` when this service was started without them. */
  credentials(): OrangeMoneyCredentials {
    const { clientId, clientSecret, merchantCode } = this.config;
    if (clientId === undefined || clientSecret === undefined || merchantCode === undefined) {
      throw new DomainError('unavailable', `${this.service} are not available on this service.`);
    }
    return { clientId, clientSecret, merchantCode };
  }

  /** An API call with the cached token; a 401 drops that token and the call is made once more. */
  async authorized(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<OrangeMoneyResponse> {
    let retried = false;
    for (;;) {
      const token = await this.tokens.get();
      if (!token.ok) {
        return token.refused
          ? { kind: 'token_refused', reason: token.reason }
          : { kind: 'no_answer', reason: token.reason };
      }
      const response = await callProvider(this.fetchFn, {
        method,
        url: `${this.config.apiBaseUrl}${path}`,
        // Sonatel's gateway answers 415 to a request without this header, even a GET.
        headers: {
          authorization: `Bearer ${token.token}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: this.options.timeoutMs,
      });
      if (response.kind === 'answered' && response.status === 401 && !retried) {
        this.tokens.invalidate(token.token);
        retried = true;
        continue;
      }
      return response;
    }
  }

  /** The transactions made under `reference` (a payment's or a payout's id): what lookups ask. */
  async transactionsByReference(reference: string): Promise<OrangeMoneySearch> {
    this.credentials();
    // No `type` filter: Sonatel's search returns nothing when one is given; we filter ourselves.
    const response = await this.authorized(
      'GET',
      `/api/eWallet/v1/transactions?reference=${encodeURIComponent(reference)}`,
    );
    if (response.kind !== 'answered') return { kind: 'unknown', reason: response.reason };
    if (!isSuccess(response.status)) {
      return {
        kind: 'unknown',
        reason: describeAnswer('orange_money', response.status, response.json),
      };
    }
    if (!Array.isArray(response.json)) {
      return { kind: 'unknown', reason: 'unreadable Orange Money transaction search' };
    }
    return { kind: 'found', transactions: response.json };
  }

  private requestToken(): Promise<ProviderResponse> {
    const { clientId, clientSecret } = this.credentials();
    return callProvider(this.fetchFn, {
      method: 'POST',
      url: `${this.config.apiBaseUrl}/oauth/v1/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
      }).toString(),
      timeoutMs: this.options.timeoutMs,
    });
  }
}
