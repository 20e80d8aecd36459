import type { OrangeMoneyConfig } from '@xaalis/config';
import { DomainError, isRecord, systemClock } from '@xaalis/kernel';
import {
  assertXofAmount,
  callProvider,
  describeAnswer,
  isDefinitiveRefusal,
  isSuccess,
  OrangeMoneyTokens,
  stringOrNull,
  type FetchFn,
  type ProviderOptions,
  type ProviderResponse,
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
import { parseOrangeMoneyCallback } from './orange-money-callback';
import {
  orangeLookupStatus,
  readOrangeTransaction,
  type OrangeTransaction,
} from './orange-money-transaction';

/** How long the customer has to pay the QR code / deep link (Sonatel allows up to a day). */
export const ORANGE_MONEY_QR_VALIDITY_SECONDS = 1800;

interface OrangeCredentials {
  clientId: string;
  clientSecret: string;
  merchantCode: string;
}

/**
 * Orange Money Senegal through Sonatel's API: OAuth2 client credentials, a merchant-payment QR
 * code with its deep links (`POST /api/eWallet/v4/qrcode`), the transaction search
 * (`GET /api/eWallet/v1/transactions?reference=…`) and the merchant callback.
 *
 * Refunds: the API has no refund of a merchant payment. Money goes back to a customer only as a
 * Cash In from a distributor wallet, which needs a distributor number and an encrypted PIN this
 * configuration does not have, so every refund is refused with that reason.
 */
export class OrangeMoneyProvider implements LivePaymentProvider {
  readonly name = 'orange_money' as const;
  private readonly fetchFn: FetchFn;
  private readonly tokens: OrangeMoneyTokens;

  constructor(
    private readonly config: OrangeMoneyConfig,
    private readonly options: ProviderOptions,
  ) {
    this.fetchFn = options.fetch ?? fetch;
    this.tokens = new OrangeMoneyTokens(() => this.requestToken(), options.clock ?? systemClock);
  }

  async startCheckout(input: StartCheckout): Promise<StartCheckoutResult> {
    const credentials = this.credentials();
    assertXofAmount('amount', input.amount);
    const response = await this.authorized('POST', '/api/eWallet/v4/qrcode', {
      amount: { unit: 'XOF', value: input.amount },
      callbackCancelUrl: input.errorUrl,
      callbackSuccessUrl: input.successUrl,
      code: credentials.merchantCode,
      metadata: { paymentId: input.paymentId },
      name: input.merchantName,
      reference: input.paymentId,
      validity: ORANGE_MONEY_QR_VALIDITY_SECONDS,
    });
    if (response.kind === 'token_refused') return { outcome: 'refused', reason: response.reason };
    if (response.kind === 'no_answer') return { outcome: 'unknown', reason: response.reason };
    if (isSuccess(response.status)) {
      const qr = readQrCode(response.json);
      if (qr === null) return { outcome: 'unknown', reason: 'unreadable Orange Money QR code' };
      return { outcome: 'started', providerReference: qr.qrId, redirectUrl: qr.link };
    }
    const reason = describeAnswer('orange_money', response.status, response.json);
    return isDefinitiveRefusal(response.status)
      ? { outcome: 'refused', reason }
      : { outcome: 'unknown', reason };
  }

  async lookup(input: PaymentLookup): Promise<ProviderPaymentStatus> {
    this.credentials();
    // No `type` filter: Sonatel's search returns nothing when one is given; we filter ourselves.
    const response = await this.authorized(
      'GET',
      `/api/eWallet/v1/transactions?reference=${encodeURIComponent(input.paymentId)}`,
    );
    if (response.kind !== 'answered') return { status: 'unknown', reason: response.reason };
    if (!isSuccess(response.status)) {
      return {
        status: 'unknown',
        reason: describeAnswer('orange_money', response.status, response.json),
      };
    }
    if (!Array.isArray(response.json)) {
      return { status: 'unknown', reason: 'unreadable Orange Money transaction search' };
    }
    const found = response.json
      .map(readOrangeTransaction)
      .filter((transaction): transaction is OrangeTransaction => transaction !== null);
    return orangeLookupStatus(input, found);
  }

  parseNotification(input: {
    headers: Record<string, string | undefined>;
    rawBody: string;
    now: Date;
  }): ProviderNotification | null {
    const apiKey = this.config.callbackApiKey;
    if (apiKey === undefined) {
      throw new DomainError(
        'unavailable',
        'Orange Money callbacks are not accepted by this service.',
      );
    }
    return parseOrangeMoneyCallback({ headers: input.headers, rawBody: input.rawBody, apiKey });
  }

  async refund(_input: RefundRequest): Promise<RefundResult> {
    return {
      outcome: 'refused',
      reason:
        'Orange Money has no refund of a merchant payment; a Cash In from a distributor wallet is not configured',
    };
  }

  private credentials(): OrangeCredentials {
    const { clientId, clientSecret, merchantCode } = this.config;
    if (clientId === undefined || clientSecret === undefined || merchantCode === undefined) {
      throw new DomainError(
        'unavailable',
        'Orange Money payments are not available on this service.',
      );
    }
    return { clientId, clientSecret, merchantCode };
  }

  /** An API call with the cached token; a 401 drops that token and the call is made once more. */
  private async authorized(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<ProviderResponse | { kind: 'token_refused'; reason: string }> {
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

/** The QR code answer: its id and the link the customer follows (the universal deep link first). */
function readQrCode(json: unknown): { qrId: string; link: string } | null {
  if (!isRecord(json)) return null;
  const qrId = stringOrNull(json['qrId']);
  const deepLinks = isRecord(json['deepLinks']) ? json['deepLinks'] : {};
  const link =
    stringOrNull(json['deepLink']) ??
    stringOrNull(deepLinks['MAXIT']) ??
    stringOrNull(deepLinks['OM']) ??
    stringOrNull(json['shortLink']);
  return qrId === null || link === null ? null : { qrId, link };
}
