import type { OrangeMoneyConfig } from '@xaalis/config';
import { DomainError, FixedClock, newId } from '@xaalis/kernel';
import {
  startFakeOrangeMoney,
  warmUpFetch,
  type FakeOrangeMoney,
} from '@xaalis/provider-http/testing';
import type { StartCheckout } from '../payment-provider';
import { startNotificationReceiver } from '../test-support/notification-receiver';
import { ORANGE_MONEY_QR_VALIDITY_SECONDS, OrangeMoneyProvider } from './orange-money-provider';

const CREDENTIALS = {
  clientId: 'om-client-id',
  clientSecret: 'om-client-secret',
  merchantCode: '621513',
  callbackApiKey: 'om-callback-api-key',
};
/**
 * Ordinary calls get all the time they need; only the timeout cases use the short one, against a
 * fake that never answers, so no assertion here depends on how fast anything runs.
 */
const TIMEOUT_MS = 5_000;
const SHORT_TIMEOUT_MS = 200;

let om: FakeOrangeMoney;
let clock: FixedClock;

beforeAll(warmUpFetch);

beforeEach(async () => {
  om = await startFakeOrangeMoney(CREDENTIALS);
  clock = new FixedClock(new Date('2026-11-22T10:00:00.000Z'));
});

afterEach(() => om.close());

const config = (overrides: Partial<OrangeMoneyConfig> = {}): OrangeMoneyConfig => ({
  apiBaseUrl: om.url,
  ...CREDENTIALS,
  ...overrides,
});

const provider = (overrides: Partial<OrangeMoneyConfig> = {}, timeoutMs = TIMEOUT_MS) =>
  new OrangeMoneyProvider(config(overrides), { timeoutMs, clock });

const impatient = () => provider({}, SHORT_TIMEOUT_MS);

const newCheckout = (overrides: Partial<StartCheckout> = {}): StartCheckout => ({
  paymentId: newId('payment'),
  amount: 1500,
  merchantName: 'Boutique Awa',
  successUrl: 'https://xaalis.test/checkout/done',
  errorUrl: 'https://xaalis.test/checkout/error',
  aggregatedMerchantId: null,
  customerPhone: '+221771234567',
  ...overrides,
});

const apiRequests = () => om.requests.filter((r) => r.path.startsWith('/api/'));
const tokenRequests = () => om.requests.filter((r) => r.path === '/oauth/v1/token');

async function started(adapter = provider(), input: StartCheckout = newCheckout()) {
  const result = await adapter.startCheckout(input);
  if (result.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(result)}`);
  return { input, qrId: result.providerReference };
}

async function errorOf(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a DomainError');
}

describe('OrangeMoneyProvider.startCheckout', () => {
  it('creates a QR code and answers its id and deep link', async () => {
    const result = await provider().startCheckout(newCheckout());

    const [qr] = [...om.qrCodes.values()];
    expect(result).toEqual({
      outcome: 'started',
      providerReference: qr?.qrId,
      redirectUrl: `${om.url}/mp/${qr?.qrId}`,
    });
  });

  it('gets a client-credentials token, then sends the QR code request Sonatel asks for', async () => {
    const input = newCheckout({ amount: 25_000 });
    await provider().startCheckout(input);

    const [token] = tokenRequests();
    expect(token?.method).toBe('POST');
    expect(token?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(token?.body).toEqual({
      grant_type: 'client_credentials',
      client_id: CREDENTIALS.clientId,
      client_secret: CREDENTIALS.clientSecret,
    });
    const [qrRequest] = apiRequests();
    expect(qrRequest?.method).toBe('POST');
    expect(qrRequest?.path).toBe('/api/eWallet/v4/qrcode');
    expect(qrRequest?.headers['authorization']).toMatch(/^Bearer om_/);
    expect(qrRequest?.body).toEqual({
      amount: { unit: 'XOF', value: 25_000 },
      callbackCancelUrl: input.errorUrl,
      callbackSuccessUrl: input.successUrl,
      code: CREDENTIALS.merchantCode,
      metadata: { paymentId: input.paymentId },
      name: 'Boutique Awa',
      reference: input.paymentId,
      validity: ORANGE_MONEY_QR_VALIDITY_SECONDS,
    });
  });

  it('a 400 is refused', async () => {
    om.failNext(400);
    expect(await provider().startCheckout(newCheckout())).toEqual({
      outcome: 'refused',
      reason: 'orange_money answered 400 (Bad Request)',
    });
  });

  it('a wrong merchant code is refused by the fake like by Sonatel', async () => {
    const result = await provider({ merchantCode: '999999' }).startCheckout(newCheckout());
    expect(result).toEqual({
      outcome: 'refused',
      reason: 'orange_money answered 400 (Bad Request)',
    });
    expect(om.qrCodes.size).toBe(0);
  });

  it('wrong client credentials are refused', async () => {
    const result = await provider({ clientSecret: 'wrong' }).startCheckout(newCheckout());

    expect(result).toEqual({
      outcome: 'refused',
      reason: 'token request: orange_money answered 401 (invalid_client)',
    });
    expect(apiRequests()).toHaveLength(0);
  });

  it.each([500, 429] as const)('a %i is unknown, never refused', async (kind) => {
    om.failNext(kind);
    const result = await provider().startCheckout(newCheckout());
    expect(result.outcome).toBe('unknown');
  });

  it('a timeout is unknown; so is a token request that times out or fails with 5xx', async () => {
    om.failNext('timeout');
    expect(await impatient().startCheckout(newCheckout())).toEqual({
      outcome: 'unknown',
      reason: 'timeout',
    });

    om.failNextToken('timeout');
    expect(await impatient().startCheckout(newCheckout())).toEqual({
      outcome: 'unknown',
      reason: 'token request: timeout',
    });
    om.failNextToken(500);
    expect((await provider().startCheckout(newCheckout())).outcome).toBe('unknown');
  });

  it('without credentials it is unavailable and calls nobody', async () => {
    for (const missing of ['clientId', 'clientSecret', 'merchantCode'] as const) {
      const error = await errorOf(provider({ [missing]: undefined }).startCheckout(newCheckout()));
      expect(error.code).toBe('unavailable');
    }
    expect(om.requests).toHaveLength(0);
  });
});

describe('OrangeMoneyProvider token', () => {
  it('is requested once for many calls, concurrent or not', async () => {
    const adapter = provider();
    await Promise.all([1, 2, 3, 4, 5].map(() => adapter.startCheckout(newCheckout())));
    await adapter.startCheckout(newCheckout());
    await adapter.lookup({ paymentId: 'pay_x', providerReference: null });

    expect(om.qrCodes.size).toBe(6);
    expect(om.tokensIssued()).toBe(1);
    expect(tokenRequests()).toHaveLength(1);
  });

  it('is renewed shortly before it expires', async () => {
    const adapter = provider();
    await adapter.startCheckout(newCheckout());

    clock.advance(268_000); // 299 s of life, renewed 30 s before the end
    await adapter.startCheckout(newCheckout());
    expect(om.tokensIssued()).toBe(1);

    clock.advance(2_000);
    await adapter.startCheckout(newCheckout());
    expect(om.tokensIssued()).toBe(2);
  });

  it('is renewed once when the API answers 401, and the call is made again', async () => {
    const adapter = provider();
    await adapter.startCheckout(newCheckout());
    om.revokeTokens();

    const result = await adapter.startCheckout(newCheckout());
    expect(result.outcome).toBe('started');
    expect(om.tokensIssued()).toBe(2);
    expect(apiRequests().map((r) => r.path)).toEqual([
      '/api/eWallet/v4/qrcode',
      '/api/eWallet/v4/qrcode',
      '/api/eWallet/v4/qrcode',
    ]);
    expect(om.qrCodes.size).toBe(2);
  });

  it('a second 401 in a row is refused, not retried forever', async () => {
    await om.close();
    om = await startFakeOrangeMoney({ ...CREDENTIALS, tokenTtlSeconds: 0 });

    const result = await provider().startCheckout(newCheckout());
    expect(result).toEqual({
      outcome: 'refused',
      reason: 'orange_money answered 401 (Unauthorized)',
    });
    expect(tokenRequests()).toHaveLength(2);
    expect(apiRequests()).toHaveLength(2);
  });
});

describe('OrangeMoneyProvider.lookup', () => {
  it('an unpaid QR code is pending; found through the reference search, with a JSON content type', async () => {
    const { input, qrId } = await started();

    expect(
      await provider().lookup({ paymentId: input.paymentId, providerReference: qrId }),
    ).toEqual({
      status: 'pending',
      providerReference: qrId,
      redirectUrl: null,
    });
    const request = apiRequests().at(-1);
    expect(request?.method).toBe('GET');
    expect(request?.path).toBe(`/api/eWallet/v1/transactions?reference=${input.paymentId}`);
    expect(request?.headers['content-type']).toBe('application/json');
  });

  it('an attempt on its way is pending; a paid one succeeded with the transaction id and amount', async () => {
    const adapter = provider();
    const { input, qrId } = await started(adapter);
    const lookup = { paymentId: input.paymentId, providerReference: qrId };

    om.initiate(qrId);
    expect((await adapter.lookup(lookup)).status).toBe('pending');

    const paid = om.pay(qrId);
    expect(await adapter.lookup(lookup)).toEqual({
      status: 'succeeded',
      providerReference: qrId,
      transactionId: paid.transactionId,
      amount: 1500,
    });
  });

  it.each(['FAILED', 'CANCELLED', 'REJECTED'] as const)('a %s attempt failed', async (status) => {
    const { input, qrId } = await started();
    om.decline(qrId, status);

    expect(
      await provider().lookup({ paymentId: input.paymentId, providerReference: qrId }),
    ).toEqual({
      status: 'failed',
      providerReference: qrId,
      reason: status.toLowerCase(),
    });
  });

  it('by payment id: not found until something happened, then the transaction', async () => {
    const input = newCheckout();
    const lookup = { paymentId: input.paymentId, providerReference: null };
    expect(await provider().lookup(lookup)).toEqual({ status: 'not_found' });

    const { qrId } = await started(provider(), input);
    expect(await provider().lookup(lookup)).toEqual({ status: 'not_found' });

    const paid = om.pay(qrId);
    expect(await provider().lookup(lookup)).toMatchObject({
      status: 'succeeded',
      providerReference: paid.transactionId,
      transactionId: paid.transactionId,
    });
  });

  it('a 500 or a timeout is unknown', async () => {
    const { input, qrId } = await started();
    om.failNext(500);
    expect(
      (await provider().lookup({ paymentId: input.paymentId, providerReference: qrId })).status,
    ).toBe('unknown');
    om.failNext('timeout');
    expect(
      await impatient().lookup({ paymentId: input.paymentId, providerReference: qrId }),
    ).toEqual({
      status: 'unknown',
      reason: 'timeout',
    });
  });
});

describe('OrangeMoneyProvider.parseNotification', () => {
  function codeOf(run: () => unknown): string {
    try {
      run();
    } catch (error) {
      if (error instanceof DomainError) return error.code;
      throw error;
    }
    throw new Error('expected a DomainError');
  }

  it('reads the merchant callback carrying the registered API key', async () => {
    const { input, qrId } = await started();
    const paid = om.pay(qrId);

    expect(provider().parseNotification({ ...om.notification(qrId), now: new Date() })).toEqual({
      paymentId: input.paymentId,
      providerReference: null,
      outcome: 'succeeded',
      transactionId: paid.transactionId,
      reason: null,
      amount: 1500,
    });
  });

  it('a failed or initiated transaction is failed or pending', async () => {
    const { qrId } = await started();
    om.decline(qrId);
    expect(
      provider().parseNotification({ ...om.notification(qrId), now: new Date() }),
    ).toMatchObject({
      outcome: 'failed',
      reason: 'failed',
    });
    om.initiate(qrId);
    expect(
      provider().parseNotification({ ...om.notification(qrId), now: new Date() })?.outcome,
    ).toBe('pending');
  });

  it('refuses a wrong or missing key; without a configured key it is unavailable', async () => {
    const { qrId } = await started();
    om.pay(qrId);
    const notification = om.notification(qrId);

    expect(
      codeOf(() =>
        provider().parseNotification({
          ...notification,
          headers: { ...notification.headers, authorization: 'Basic not-the-key' },
          now: new Date(),
        }),
      ),
    ).toBe('authentication_required');
    expect(
      codeOf(() =>
        provider().parseNotification({
          headers: {},
          rawBody: notification.rawBody,
          now: new Date(),
        }),
      ),
    ).toBe('authentication_required');
    expect(
      codeOf(() =>
        provider({ callbackApiKey: undefined }).parseNotification({
          ...notification,
          now: new Date(),
        }),
      ),
    ).toBe('unavailable');
  });

  it('a callback delivered over HTTP is accepted by the receiver', async () => {
    const receiver = await startNotificationReceiver(provider());
    try {
      const { input, qrId } = await started();
      om.pay(qrId);

      expect(await om.deliver(receiver.url, qrId)).toEqual({ status: 200, body: 'ok' });
      expect(receiver.received).toEqual([
        expect.objectContaining({ paymentId: input.paymentId, outcome: 'succeeded' }),
      ]);
    } finally {
      await receiver.close();
    }
  });
});

describe('OrangeMoneyProvider.refund', () => {
  it('is refused with the reason, without calling Sonatel', async () => {
    const { input, qrId } = await started();
    const paid = om.pay(qrId);
    const before = om.requests.length;

    const result = await provider().refund({
      refundId: newId('refund'),
      paymentId: input.paymentId,
      providerReference: qrId,
      providerTransactionId: paid.transactionId,
      amount: 1500,
      paymentAmount: 1500,
      customerPhone: input.customerPhone,
    });
    expect(result.outcome).toBe('refused');
    expect(result.outcome === 'refused' && result.reason).toMatch(
      /no refund of a merchant payment/,
    );
    expect(om.requests).toHaveLength(before);
  });
});
