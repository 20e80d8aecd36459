import type { OrangeMoneyConfig } from '@xaalis/config';
import { DomainError, isRecord } from '@xaalis/kernel';
import {
  assertXofAmount,
  describeAnswer,
  isDefinitiveRefusal,
  isSuccess,
  OrangeMoneyApi,
  stringOrNull,
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
import { parseOrangeMoneyCallback } from './orange-money-callback';
import {
  orangeLookupStatus,
  readOrangeTransaction,
  type OrangeTransaction,
} from './orange-money-transaction';

/** How long the customer has to pay the QR code / deep link (Sonatel allows up to a day). */
export const ORANGE_MONEY_QR_VALIDITY_SECONDS = 1800;

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
  private readonly api: OrangeMoneyApi;

  constructor(
    private readonly config: OrangeMoneyConfig,
    options: ProviderOptions,
  ) {
    this.api = new OrangeMoneyApi(config, options, 'Orange Money payments');
  }

  async startCheckout(input: StartCheckout): Promise<StartCheckoutResult> {
    const credentials = this.api.credentials();
    assertXofAmount('amount', input.amount);
    const response = await this.api.authorized('POST', '/api/eWallet/v4/qrcode', {
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
    const search = await this.api.transactionsByReference(input.paymentId);
    if (search.kind === 'unknown') return { status: 'unknown', reason: search.reason };
    const found = search.transactions
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
