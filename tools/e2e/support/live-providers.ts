import { createHmac } from 'node:crypto';
import { expect } from '@jest/globals';
import {
  startFakeOrangeMoney,
  startFakeWave,
  type FakeNotification,
  type FakeOrangeMoney,
  type FakeWave,
  type RecordedRequest,
} from '@xaalis/provider-http/testing';
import type { TestMerchant } from './merchant';

/**
 * The local Wave and Orange Money fakes a live-mode service talks to (CONTRACT 6: live adapters
 * with configurable base URLs), and what the suites do with them: point the service at them,
 * give a merchant its Wave identity, and POST the providers' notifications to the gateway.
 */
export const WAVE_API_KEY = 'wave_sn_prod_e2e_api_key_0123456789';
export const WAVE_WEBHOOK_SECRET = 'wave_sn_WHS_e2e_webhook_secret_0123456789';
export const ORANGE_MONEY = {
  clientId: 'om-e2e-client-id',
  clientSecret: 'om-e2e-client-secret-0123456789',
  merchantCode: '593012',
  callbackApiKey: 'om-e2e-callback-api-key-0123456789',
} as const;

export const WAVE_WEBHOOK_PATH = '/providers/wave/webhook';
export const ORANGE_MONEY_CALLBACK_PATH = '/providers/orange-money/callback';

export interface LiveFakes {
  wave: FakeWave;
  orangeMoney: FakeOrangeMoney;
  /** The service's configuration for these fakes (merge into `startInProcessService`). */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startLiveFakes(): Promise<LiveFakes> {
  const wave = await startFakeWave({ apiKey: WAVE_API_KEY, webhookSecret: WAVE_WEBHOOK_SECRET });
  const orangeMoney = await startFakeOrangeMoney({ ...ORANGE_MONEY });
  return {
    wave,
    orangeMoney,
    env: {
      WAVE_API_BASE_URL: wave.url,
      WAVE_API_KEY,
      WAVE_WEBHOOK_SECRET,
      ORANGE_MONEY_API_BASE_URL: orangeMoney.url,
      ORANGE_MONEY_CLIENT_ID: ORANGE_MONEY.clientId,
      ORANGE_MONEY_CLIENT_SECRET: ORANGE_MONEY.clientSecret,
      ORANGE_MONEY_MERCHANT_CODE: ORANGE_MONEY.merchantCode,
      ORANGE_MONEY_CALLBACK_API_KEY: ORANGE_MONEY.callbackApiKey,
    },
    async close() {
      await wave.close();
      await orangeMoney.close();
    },
  };
}

/** CONTRACT 5: the owner sets the merchant's Wave aggregated merchant id (must answer 200). */
export async function setWaveIdentity(merchant: TestMerchant, aggregatedMerchantId: string) {
  const set = await merchant.owner.request(
    'PUT',
    `/dashboard/v1/merchants/${merchant.merchantId}/live/provider-identities/wave`,
    { body: { aggregated_merchant_id: aggregatedMerchantId } },
  );
  expect({ status: set.status, body: set.body }).toEqual({
    status: 200,
    body: expect.objectContaining({ aggregated_merchant_id: aggregatedMerchantId }),
  });
}

export interface PostedNotification {
  status: number;
  /** Parsed JSON when the reply is JSON, else the text. */
  // Error envelopes and `{received}` are checked field by field by the suites.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** POSTs a provider notification's exact bytes and headers, as the provider would. */
export async function postNotification(
  url: string,
  notification: FakeNotification,
): Promise<PostedNotification> {
  const response = await fetch(url, {
    method: 'POST',
    headers: notification.headers,
    body: notification.rawBody,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json') && text !== '';
  return { status: response.status, body: json ? JSON.parse(text) : text };
}

/** Wave's `Wave-Signature` for a body, at a unix-seconds timestamp, under any secret. */
export function waveSignatureHeader(secret: string, timestamp: number, rawBody: string): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}${rawBody}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** The Wave checkout-session creations the fake received for one payment (any outcome). */
export function waveSessionCreations(wave: FakeWave, paymentId: string): RecordedRequest[] {
  return wave.requests.filter(
    (request) =>
      request.method === 'POST' &&
      request.path === '/v1/checkout/sessions' &&
      (request.body as { client_reference?: unknown } | undefined)?.client_reference === paymentId,
  );
}

/** The Orange Money QR-code creations the fake received for one payment. */
export function orangeQrCreations(
  orangeMoney: FakeOrangeMoney,
  paymentId: string,
): RecordedRequest[] {
  return orangeMoney.requests.filter(
    (request) =>
      request.method === 'POST' &&
      request.path === '/api/eWallet/v4/qrcode' &&
      (request.body as { reference?: unknown } | undefined)?.reference === paymentId,
  );
}

/** How many requests the fake received at this exact path (and method). */
export const requestsTo = (requests: RecordedRequest[], method: string, path: string): number =>
  requests.filter((request) => request.method === method && request.path === path).length;
