import type { FakeNotification } from '@xaalis/provider-http/testing';
import {
  closeWithLedgerBalanced,
  startInProcessService,
  type InProcessService,
} from './support/in-process-service';
import {
  ORANGE_MONEY,
  ORANGE_MONEY_CALLBACK_PATH,
  orangeQrCreations,
  postNotification,
  requestsTo,
  startLiveFakes,
  type LiveFakes,
} from './support/live-providers';
import { merchantFactory, type TestMerchant } from './support/merchant';
import {
  clientSecretOf,
  createRefund,
  eventually,
  expectBalance,
  expectError,
  getPayment,
  newPayment,
  PAYMENT_LIFETIME_MS,
  type PaymentObject,
} from './support/payments';

/**
 * Live Orange Money payments through the running service against the local Sonatel fake: the
 * QR code's deep link as `next_action`, one OAuth token for many calls, the merchant callback
 * (spec 3.1, CONTRACT 5 and 6), and a refund Orange Money cannot make.
 */
describe('live Orange Money payments through the running service', () => {
  let fakes: LiveFakes;
  let service: InProcessService;
  const newMerchant = merchantFactory(() => service.http);
  const orangeMoney = () => fakes.orangeMoney;
  const callbackUrl = () => `${service.url}${ORANGE_MONEY_CALLBACK_PATH}`;

  beforeAll(async () => {
    fakes = await startLiveFakes();
    service = await startInProcessService(fakes.env);
  });
  afterAll(async () => {
    try {
      await closeWithLedgerBalanced(service);
    } finally {
      await fakes?.close();
    }
  });

  const liveOrangePayment = (merchant: TestMerchant, amount: number) =>
    newPayment(service.http, merchant.liveKey, { amount, provider: 'orange_money' });

  const callback = (notification: FakeNotification) =>
    postNotification(callbackUrl(), notification);

  /** A payment paid at Orange Money and announced by its callback: the succeeded payment. */
  async function paidByCallback(merchant: TestMerchant, amount: number): Promise<PaymentObject> {
    const payment = await liveOrangePayment(merchant, amount);
    orangeMoney().pay(payment.id);
    expect(await callback(orangeMoney().notification(payment.id))).toEqual({
      status: 200,
      body: { received: true },
    });
    const succeeded = await getPayment(service.http, merchant.liveKey, payment.id);
    expect(succeeded.status).toBe('succeeded');
    return succeeded;
  }

  it('live create with provider orange_money: next_action is the deep link of the QR code asked for; one OAuth token serves them all', async () => {
    const merchant = await newMerchant();
    const account = await service.http.get('/v1/account', { bearer: merchant.liveKey });

    const payments: PaymentObject[] = [];
    for (const amount of [1_500, 2_500, 3_500])
      payments.push(await liveOrangePayment(merchant, amount));

    for (const payment of payments) {
      const qr = orangeMoney().qrCode(payment.id);
      expect(payment).toEqual(
        expect.objectContaining({
          livemode: true,
          status: 'processing',
          provider: 'orange_money',
          next_action: { type: 'redirect', url: `${orangeMoney().url}/mp/${qr.qrId}` },
        }),
      );
      const [sent, ...more] = orangeQrCreations(orangeMoney(), payment.id);
      expect(more).toEqual([]);
      expect(sent?.body).toEqual({
        amount: { unit: 'XOF', value: payment.amount },
        code: ORANGE_MONEY.merchantCode,
        name: account.body.name,
        reference: payment.id,
        metadata: { paymentId: payment.id },
        callbackSuccessUrl: payment.checkout_url,
        callbackCancelUrl: payment.checkout_url,
        validity: expect.any(Number),
      });
    }
    expect(payments.map((payment) => [payment.fee, payment.net])).toEqual([
      [23, 1_477],
      [38, 2_462],
      [53, 3_447],
    ]);
    expect(orangeMoney().tokensIssued()).toBe(1);
    expect(requestsTo(orangeMoney().requests, 'POST', '/oauth/v1/token')).toBe(1);
  });

  // The QR code (the deep link the customer is sent to) must outlive the payment's 30 minutes.
  it('the QR code stays payable for the whole 30-minute life of the payment', async () => {
    const merchant = await newMerchant();
    const payment = await liveOrangePayment(merchant, 1_000);
    const [sent] = orangeQrCreations(orangeMoney(), payment.id);
    const lifetimeSeconds =
      (Date.parse(payment.expires_at) - Date.parse(payment.created_at)) / 1000;
    expect(lifetimeSeconds).toBe(PAYMENT_LIFETIME_MS / 1000);
    expect((sent?.body as { validity: number }).validity).toBeGreaterThanOrEqual(lifetimeSeconds);
  });

  it('the customer pay step on a live payment without provider, choosing orange_money, redirects to the deep link', async () => {
    const merchant = await newMerchant();
    const created = await newPayment(service.http, merchant.liveKey, { amount: 4_000 });
    const cs = encodeURIComponent(clientSecretOf(created));

    const paid = await service.http.post(`/v1/public/payments/${created.id}/pay?cs=${cs}`, {
      body: { provider: 'orange_money' },
    });

    const qr = orangeMoney().qrCode(created.id);
    expect({ status: paid.status, body: paid.body }).toEqual({
      status: 200,
      body: expect.objectContaining({
        id: created.id,
        status: 'processing',
        provider: 'orange_money',
        next_action: { type: 'redirect', url: `${orangeMoney().url}/mp/${qr.qrId}` },
      }),
    });
    expect(orangeQrCreations(orangeMoney(), created.id)).toHaveLength(1);
  });

  it('the callback with the registered API key: succeeded with the transaction id and a 1.5% fee, net credited; a wrong key is a 401', async () => {
    const merchant = await newMerchant();
    const payment = await liveOrangePayment(merchant, 10_000);
    const transaction = orangeMoney().pay(payment.id);
    const genuine = orangeMoney().notification(payment.id);
    const { authorization, ...withoutKey } = genuine.headers;
    expect(authorization).toBe(`Basic ${ORANGE_MONEY.callbackApiKey}`);

    for (const forged of [
      {
        headers: { ...genuine.headers, authorization: 'Basic om-e2e-not-the-callback-key' },
        rawBody: genuine.rawBody,
      },
      { headers: withoutKey, rawBody: genuine.rawBody },
    ]) {
      const reply = await callback(forged);
      expect({ status: reply.status, code: reply.body?.error?.code }).toEqual({
        status: 401,
        code: 'authentication_required',
      });
    }
    expect(await getPayment(service.http, merchant.liveKey, payment.id)).toEqual(payment);

    expect(await callback(genuine)).toEqual({ status: 200, body: { received: true } });

    expect(await getPayment(service.http, merchant.liveKey, payment.id)).toEqual({
      ...payment,
      status: 'succeeded',
      fee: 150,
      net: 9_850,
      provider_transaction_id: transaction.transactionId,
      succeeded_at: service.clock.now().toISOString(),
      next_action: { type: 'redirect', url: payment.checkout_url },
    });
    await expectBalance(service.http, merchant.liveKey, { available: 9_850, pending: 0 });
  });

  it('a FAILED callback: failed', async () => {
    const merchant = await newMerchant();
    const payment = await liveOrangePayment(merchant, 6_000);
    orangeMoney().decline(payment.id, 'FAILED');

    expect(await callback(orangeMoney().notification(payment.id))).toEqual({
      status: 200,
      body: { received: true },
    });

    expect(await getPayment(service.http, merchant.liveKey, payment.id)).toEqual({
      ...payment,
      status: 'failed',
      failure_reason: 'failed',
      next_action: { type: 'redirect', url: payment.checkout_url },
    });
  });

  it('a transient INITIATED callback leaves the payment processing; the SUCCESS that follows settles it', async () => {
    const merchant = await newMerchant();
    const payment = await liveOrangePayment(merchant, 2_000);
    orangeMoney().initiate(payment.id);

    expect(await callback(orangeMoney().notification(payment.id))).toEqual({
      status: 200,
      body: { received: true },
    });
    expect(await getPayment(service.http, merchant.liveKey, payment.id)).toEqual(payment);

    orangeMoney().pay(payment.id);
    expect(await callback(orangeMoney().notification(payment.id))).toEqual({
      status: 200,
      body: { received: true },
    });
    expect((await getPayment(service.http, merchant.liveKey, payment.id)).status).toBe('succeeded');
  });

  it('a refund of an Orange Money payment: the adapter refuses (no refund API), the refund fails and the balance comes back', async () => {
    const merchant = await newMerchant();
    const refunded = await paidByCallback(merchant, 10_000);
    await paidByCallback(merchant, 10_000);
    const funded = { available: 2 * 9_850, pending: 0 };
    await expectBalance(service.http, merchant.liveKey, funded);
    const requestsBefore = orangeMoney().requests.length;

    const refund = await createRefund(service.http, merchant.liveKey, { payment: refunded.id });

    expect({ status: refund.status, body: refund.body }).toEqual({
      status: 201,
      body: expect.objectContaining({ payment: refunded.id, amount: 10_000, status: 'pending' }),
    });
    service.clock.advance(1_000);
    await expectBalance(service.http, merchant.liveKey, funded);
    expect(await getPayment(service.http, merchant.liveKey, refunded.id)).toEqual(refunded);
    expect(orangeMoney().requests.length).toBe(requestsBefore);

    // The failed refund no longer claims the amount: a new one is accepted (while the first was
    // pending it would be a 409, and after a success the payment would be refunded).
    const retried = await eventually(
      () => createRefund(service.http, merchant.liveKey, { payment: refunded.id }),
      (reply) => reply.status !== 409,
    );
    expect({ status: retried.status, refundStatus: retried.body.status }).toEqual({
      status: 201,
      refundStatus: 'pending',
    });
    await expectBalance(service.http, merchant.liveKey, funded);
    expect(await getPayment(service.http, merchant.liveKey, refunded.id)).toEqual(refunded);
  });

  it('a refund while the balance is short: 402 insufficient_funds and nothing held', async () => {
    const merchant = await newMerchant();
    const payment = await paidByCallback(merchant, 10_000);
    await expectBalance(service.http, merchant.liveKey, { available: 9_850, pending: 0 });

    const refused = await createRefund(service.http, merchant.liveKey, { payment: payment.id });

    expectError(refused, 402, 'insufficient_funds');
    await expectBalance(service.http, merchant.liveKey, { available: 9_850, pending: 0 });
    expect(await getPayment(service.http, merchant.liveKey, payment.id)).toEqual(payment);
  });
});
