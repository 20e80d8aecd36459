import type { WaveConfig } from '@xaalis/config';
import { DomainError, newId } from '@xaalis/kernel';
import { startFakeWave, warmUpFetch, type FakeWave } from '@xaalis/provider-http/testing';
import type { RefundRequest, StartCheckout } from '../payment-provider';
import { startNotificationReceiver } from '../test-support/notification-receiver';
import { WaveProvider } from './wave-provider';

const API_KEY = 'wave_sn_prod_int_test_key';
const SECRET = 'wave_sn_WHS_int_test_secret';
/**
 * Ordinary calls get all the time they need; only the timeout cases use the short one, against a
 * fake that never answers, so no assertion here depends on how fast anything runs.
 */
const TIMEOUT_MS = 5_000;
const SHORT_TIMEOUT_MS = 200;

let wave: FakeWave;

beforeAll(warmUpFetch);

beforeEach(async () => {
  wave = await startFakeWave({ apiKey: API_KEY, webhookSecret: SECRET });
});

afterEach(() => wave.close());

const provider = (config: Partial<WaveConfig> = {}, timeoutMs = TIMEOUT_MS) =>
  new WaveProvider(
    { apiBaseUrl: wave.url, apiKey: API_KEY, webhookSecret: SECRET, ...config },
    { timeoutMs },
  );

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

async function started(input: StartCheckout = newCheckout()) {
  const result = await provider().startCheckout(input);
  if (result.outcome !== 'started') throw new Error(`not started: ${JSON.stringify(result)}`);
  return { input, sessionId: result.providerReference };
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

describe('WaveProvider.startCheckout', () => {
  it('creates a checkout session and answers its id and launch URL', async () => {
    const input = newCheckout();
    const result = await provider().startCheckout(input);

    const session = [...wave.sessions.values()][0];
    expect(result).toEqual({
      outcome: 'started',
      providerReference: session?.id,
      redirectUrl: session?.wave_launch_url,
    });
    expect(session?.id).toMatch(/^cos-/);
  });

  it('sends the request Wave asks for: amount as an integer string, bearer key, idempotency key', async () => {
    const input = newCheckout({ amount: 25_000 });
    await provider().startCheckout(input);

    expect(wave.requests).toHaveLength(1);
    const [request] = wave.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/checkout/sessions');
    expect(request?.headers['authorization']).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers['idempotency-key']).toBe(input.paymentId);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({
      amount: '25000',
      currency: 'XOF',
      success_url: input.successUrl,
      error_url: input.errorUrl,
      client_reference: input.paymentId,
    });
  });

  it('passes aggregated_merchant_id in aggregator mode', async () => {
    await provider().startCheckout(newCheckout({ aggregatedMerchantId: 'am-7lks22ap113t4' }));

    expect(wave.requests[0]?.body).toMatchObject({ aggregated_merchant_id: 'am-7lks22ap113t4' });
    expect([...wave.sessions.values()][0]?.aggregated_merchant_id).toBe('am-7lks22ap113t4');
  });

  it('a repeated start of the same payment gets the same session back; a new idempotency key a new one', async () => {
    const input = newCheckout();
    const first = await provider().startCheckout(input);
    const again = await provider().startCheckout(input);
    const fresh = await provider().startCheckout({
      ...input,
      idempotencyKey: `${input.paymentId}-2`,
    });

    expect(again).toEqual(first);
    expect(fresh.outcome).toBe('started');
    expect(fresh).not.toEqual(first);
    expect(wave.sessions.size).toBe(2);
  });

  it('a 400 is refused', async () => {
    wave.failNext(400);
    const result = await provider().startCheckout(newCheckout());

    expect(result).toEqual({
      outcome: 'refused',
      reason: 'wave answered 400 (request-validation-error)',
    });
  });

  it('a wrong API key is refused', async () => {
    const result = await provider({ apiKey: 'wave_sn_prod_wrong' }).startCheckout(newCheckout());

    expect(result).toEqual({ outcome: 'refused', reason: 'wave answered 401 (invalid-auth)' });
  });

  it.each([
    [500, 'wave answered 500 (internal-server-error)'],
    [429, 'wave answered 429 (rate-limit-exceeded)'],
  ] as const)('a %i is unknown, never refused', async (kind, reason) => {
    wave.failNext(kind);
    expect(await provider().startCheckout(newCheckout())).toEqual({ outcome: 'unknown', reason });
  });

  it('a timeout is unknown, and the session Wave made anyway is found by payment id', async () => {
    const input = newCheckout();
    wave.failNext('timeout');
    const result = await impatient().startCheckout(input);

    expect(result).toEqual({ outcome: 'unknown', reason: 'timeout' });
    const session = wave.session(input.paymentId);
    expect(
      await provider().lookup({ paymentId: input.paymentId, providerReference: null }),
    ).toEqual({
      status: 'pending',
      providerReference: session.id,
      redirectUrl: session.wave_launch_url,
    });
  });

  it('a provider that cannot be reached is unknown', async () => {
    const gone = await startFakeWave({ apiKey: API_KEY, webhookSecret: SECRET });
    await gone.close();
    const result = await new WaveProvider(
      { apiBaseUrl: gone.url, apiKey: API_KEY, webhookSecret: SECRET },
      { timeoutMs: TIMEOUT_MS },
    ).startCheckout(newCheckout());

    expect(result.outcome).toBe('unknown');
    expect(result.outcome === 'unknown' && result.reason).toMatch(/^network error/);
  });

  it('without WAVE_API_KEY it is unavailable and calls nobody', async () => {
    const error = await errorOf(provider({ apiKey: undefined }).startCheckout(newCheckout()));

    expect(error.code).toBe('unavailable');
    expect(error.message).toBe('Wave payments are not available on this service.');
    expect(wave.requests).toHaveLength(0);
  });

  it('refuses a non-integer amount before Wave sees it', async () => {
    const error = await errorOf(provider().startCheckout(newCheckout({ amount: 1500.5 })));

    expect(error.code).toBe('validation_error');
    expect(wave.requests).toHaveLength(0);
  });
});

describe('WaveProvider.lookup', () => {
  it('by reference: an open session is pending, with its launch URL', async () => {
    const { input, sessionId } = await started();

    expect(
      await provider().lookup({ paymentId: input.paymentId, providerReference: sessionId }),
    ).toEqual({
      status: 'pending',
      providerReference: sessionId,
      redirectUrl: wave.session(sessionId).wave_launch_url,
    });
    expect(wave.requests.at(-1)?.path).toBe(`/v1/checkout/sessions/${sessionId}`);
  });

  it('by reference: a paid session succeeded, with the transaction id and amount', async () => {
    const { input, sessionId } = await started();
    const paid = wave.pay(sessionId);

    expect(
      await provider().lookup({ paymentId: input.paymentId, providerReference: sessionId }),
    ).toEqual({
      status: 'succeeded',
      providerReference: sessionId,
      transactionId: paid.transaction_id,
      amount: 1500,
    });
  });

  it('by reference: an expired session failed (expired); a declined attempt leaves it pending', async () => {
    const { input, sessionId } = await started();
    const lookup = { paymentId: input.paymentId, providerReference: sessionId };

    wave.decline(sessionId);
    expect((await provider().lookup(lookup)).status).toBe('pending');

    wave.expire(sessionId);
    expect(await provider().lookup(lookup)).toEqual({
      status: 'failed',
      providerReference: sessionId,
      reason: 'expired',
    });
  });

  it('by reference: a session Wave does not know is not found', async () => {
    expect(
      await provider().lookup({ paymentId: 'pay_x', providerReference: 'cos-unknown' }),
    ).toEqual({
      status: 'not_found',
    });
  });

  it('by reference: a session of another payment is unknown, never taken for this one', async () => {
    const { sessionId } = await started();

    expect(
      await provider().lookup({ paymentId: 'pay_other', providerReference: sessionId }),
    ).toEqual({
      status: 'unknown',
      reason: 'the Wave session belongs to another client reference',
    });
  });

  it('by payment id: nothing found is not found; found through the client-reference search', async () => {
    const input = newCheckout();
    const lookup = { paymentId: input.paymentId, providerReference: null };
    expect(await provider().lookup(lookup)).toEqual({ status: 'not_found' });

    const { sessionId } = await started(input);
    wave.pay(sessionId);
    expect(await provider().lookup(lookup)).toMatchObject({
      status: 'succeeded',
      providerReference: sessionId,
    });
    expect(wave.requests.at(-1)?.path).toBe(
      `/v1/checkout/sessions/search?client_reference=${input.paymentId}`,
    );
  });

  it('by payment id: among several sessions, the paid one', async () => {
    const input = newCheckout();
    const first = await started(input);
    const second = await started({ ...input, idempotencyKey: 'second-attempt' });
    wave.expire(first.sessionId);
    wave.pay(second.sessionId);

    expect(
      await provider().lookup({ paymentId: input.paymentId, providerReference: null }),
    ).toMatchObject({
      status: 'succeeded',
      providerReference: second.sessionId,
    });
  });

  it('a 500 or a timeout is unknown', async () => {
    const { input, sessionId } = await started();
    wave.failNext(500);
    expect(
      (await provider().lookup({ paymentId: input.paymentId, providerReference: sessionId }))
        .status,
    ).toBe('unknown');
    wave.failNext('timeout');
    expect(
      await impatient().lookup({ paymentId: input.paymentId, providerReference: null }),
    ).toEqual({
      status: 'unknown',
      reason: 'timeout',
    });
  });
});

describe('WaveProvider.parseNotification', () => {
  const parse = (
    notification: { headers: Record<string, string>; rawBody: string },
    now = new Date(),
  ) => provider().parseNotification({ ...notification, now });

  function codeOf(run: () => unknown): string {
    try {
      run();
    } catch (error) {
      if (error instanceof DomainError) return error.code;
      throw error;
    }
    throw new Error('expected a DomainError');
  }

  it('reads a signed checkout.session.completed', async () => {
    const { input, sessionId } = await started();
    const paid = wave.pay(sessionId);

    expect(parse(wave.notification(sessionId))).toEqual({
      paymentId: input.paymentId,
      providerReference: sessionId,
      outcome: 'succeeded',
      transactionId: paid.transaction_id,
      reason: null,
      amount: 1500,
    });
  });

  it('reads a signed checkout.session.payment_failed', async () => {
    const { sessionId } = await started();
    wave.decline(sessionId, 'insufficient-funds');

    expect(parse(wave.notification(sessionId))).toMatchObject({
      outcome: 'failed',
      reason: 'insufficient-funds',
    });
  });

  it('accepts a header with two v1 where only the second matches', async () => {
    const { sessionId } = await started();
    wave.pay(sessionId);
    const notification = wave.notification(sessionId);
    const header = notification.headers['wave-signature'] ?? '';
    const rotated = header.replace('v1=', `v1=${'0'.repeat(64)},v1=`);

    expect(rotated.match(/v1=/g)).toHaveLength(2);
    expect(
      parse({ ...notification, headers: { ...notification.headers, 'wave-signature': rotated } })
        ?.outcome,
    ).toBe('succeeded');
  });

  it('refuses a wrong signature, a tampered body and a stale timestamp', async () => {
    const { sessionId } = await started();
    wave.pay(sessionId);
    const notification = wave.notification(sessionId);
    const otherSecret = new WaveProvider(
      { apiBaseUrl: wave.url, apiKey: API_KEY, webhookSecret: 'another-secret' },
      { timeoutMs: TIMEOUT_MS },
    );

    expect(codeOf(() => otherSecret.parseNotification({ ...notification, now: new Date() }))).toBe(
      'authentication_required',
    );
    expect(
      codeOf(() =>
        parse({ ...notification, rawBody: notification.rawBody.replace('"1500"', '"15"') }),
      ),
    ).toBe('authentication_required');
    const stale = wave.notification(sessionId, { at: new Date(Date.now() - 301_000) });
    expect(codeOf(() => parse(stale))).toBe('authentication_required');
  });

  it('ignores other event types', async () => {
    const { sessionId } = await started();

    expect(parse(wave.notification(sessionId, { type: 'b2b.payment_received' }))).toBeNull();
  });

  it('without WAVE_WEBHOOK_SECRET it is unavailable', async () => {
    const { sessionId } = await started();
    wave.pay(sessionId);

    expect(
      codeOf(() =>
        provider({ webhookSecret: undefined }).parseNotification({
          ...wave.notification(sessionId),
          now: new Date(),
        }),
      ),
    ).toBe('unavailable');
  });

  it('a webhook delivered over HTTP is accepted by the receiver; a tampered one is not', async () => {
    const receiver = await startNotificationReceiver(provider());
    try {
      const { input, sessionId } = await started();
      wave.pay(sessionId);

      expect(await wave.deliver(receiver.url, sessionId)).toEqual({ status: 200, body: 'ok' });
      expect(receiver.received).toEqual([
        expect.objectContaining({ paymentId: input.paymentId, outcome: 'succeeded' }),
      ]);

      const forged = wave.notification(sessionId);
      const response = await fetch(receiver.url, {
        method: 'POST',
        headers: forged.headers,
        body: forged.rawBody.replace('succeeded', 'cancelled'),
      });
      expect(response.status).toBe(401);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

describe('WaveProvider.refund', () => {
  const refundOf = (
    input: StartCheckout,
    overrides: Partial<RefundRequest> = {},
  ): RefundRequest => ({
    refundId: newId('refund'),
    paymentId: input.paymentId,
    providerReference: null,
    providerTransactionId: null,
    amount: input.amount,
    paymentAmount: input.amount,
    customerPhone: input.customerPhone,
    ...overrides,
  });

  it('a full refund refunds the checkout session', async () => {
    const { input, sessionId } = await started();
    wave.pay(sessionId);
    const refund = refundOf(input, { providerReference: sessionId });

    expect(await provider().refund(refund)).toEqual({
      outcome: 'succeeded',
      providerReference: sessionId,
    });
    expect(wave.refundedSessions.has(sessionId)).toBe(true);
    const request = wave.requests.at(-1);
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe(`/v1/checkout/sessions/${sessionId}/refund`);
    expect(request?.headers['idempotency-key']).toBe(refund.refundId);
  });

  it('a full refund without the reference finds the paid session first', async () => {
    const { input, sessionId } = await started();
    wave.pay(sessionId);

    expect(await provider().refund(refundOf(input))).toEqual({
      outcome: 'succeeded',
      providerReference: sessionId,
    });
    expect(wave.refundedSessions.has(sessionId)).toBe(true);
  });

  it('a full refund of an unpaid session is refused', async () => {
    const { input, sessionId } = await started();

    expect(await provider().refund(refundOf(input, { providerReference: sessionId }))).toEqual({
      outcome: 'refused',
      reason: 'wave answered 400 (checkout-refund-failed)',
    });
    expect(await provider().refund(refundOf(input))).toEqual({
      outcome: 'refused',
      reason: 'no paid Wave checkout session for this payment',
    });
  });

  it('a partial refund is a payout of the amount to the customer phone', async () => {
    const { input, sessionId } = await started();
    wave.pay(sessionId);
    const refund = refundOf(input, { providerReference: sessionId, amount: 500 });
    const result = await provider().refund(refund);

    const payout = wave.payouts[0];
    expect(result).toEqual({ outcome: 'succeeded', providerReference: payout?.id });
    expect(payout).toMatchObject({
      receive_amount: '500',
      mobile: '+221771234567',
      client_reference: refund.refundId,
    });
    const request = wave.requests.at(-1);
    expect(request?.path).toBe('/v1/payout');
    expect(request?.headers['idempotency-key']).toBe(refund.refundId);
    expect(request?.body).toEqual({
      currency: 'XOF',
      receive_amount: '500',
      mobile: '+221771234567',
      client_reference: refund.refundId,
    });
    expect(wave.refundedSessions.size).toBe(0);
  });

  it('a partial refund without the customer phone is refused without calling Wave', async () => {
    const { input, sessionId } = await started();
    wave.pay(sessionId);
    const before = wave.requests.length;

    const result = await provider().refund(refundOf(input, { amount: 500, customerPhone: null }));
    expect(result.outcome).toBe('refused');
    expect(result.outcome === 'refused' && result.reason).toMatch(/customer phone/);
    expect(wave.requests).toHaveLength(before);
  });

  it('a refund larger than the payment is refused; a 500 or a timeout is unknown', async () => {
    const { input, sessionId } = await started();
    wave.pay(sessionId);

    expect(await provider().refund(refundOf(input, { amount: 2000 }))).toEqual({
      outcome: 'refused',
      reason: 'the refund is larger than the payment',
    });
    wave.failNext(500);
    expect((await provider().refund(refundOf(input, { amount: 500 }))).outcome).toBe('unknown');
    wave.failNext('timeout');
    expect(await impatient().refund(refundOf(input, { providerReference: sessionId }))).toEqual({
      outcome: 'unknown',
      reason: 'timeout',
    });
  });
});
