import { randomBytes } from 'node:crypto';
import {
  closeWithLedgerBalanced,
  startInProcessService,
  type InProcessService,
} from './support/in-process-service';
import {
  postNotification,
  requestsTo,
  setWaveIdentity,
  startLiveFakes,
  waveSessionCreations,
  waveSignatureHeader,
  WAVE_API_KEY,
  WAVE_WEBHOOK_PATH,
  type LiveFakes,
} from './support/live-providers';
import { merchantFactory, type TestMerchant } from './support/merchant';
import {
  allPaymentIds,
  clientSecretOf,
  createPayment,
  createRefund,
  eventuallyStatus,
  expectBalance,
  expectError,
  getPayment,
  newPayment,
  PAYMENT_LIFETIME_MS,
  type PaymentObject,
} from './support/payments';

const aggregatedId = () => `am-e2e-${randomBytes(6).toString('hex')}`;

/**
 * Live Wave payments through the running service against the local Wave fake, in aggregator mode
 * (the default): spec 3.1 and 4.1, CONTRACT 2, 5 and 6. Tests that move the clock come last, so
 * the expiry jobs they release find the earlier tests' payments already settled.
 */
describe('live Wave payments through the running service', () => {
  let fakes: LiveFakes;
  let service: InProcessService;
  const newMerchant = merchantFactory(() => service.http);
  const wave = () => fakes.wave;
  const webhookUrl = () => `${service.url}${WAVE_WEBHOOK_PATH}`;

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

  /** A merchant whose Wave identity is set, so live `wave` payments are allowed. */
  async function waveMerchant(): Promise<TestMerchant & { aggregatedMerchantId: string }> {
    const merchant = await newMerchant();
    const aggregatedMerchantId = aggregatedId();
    await setWaveIdentity(merchant, aggregatedMerchantId);
    return { ...merchant, aggregatedMerchantId };
  }

  const liveWavePayment = (
    merchant: TestMerchant,
    amount: number,
    extra: Record<string, unknown> = {},
  ) => newPayment(service.http, merchant.liveKey, { amount, provider: 'wave', ...extra });

  /** Wave's signed webhook for the payment's session, timestamped on the service's clock. */
  const waveNotification = (paymentId: string, type?: string) =>
    wave().notification(paymentId, { at: service.clock.now(), ...(type ? { type } : {}) });

  /** A payment paid at Wave and announced by its webhook: the succeeded payment. */
  async function paidByWebhook(merchant: TestMerchant, amount: number): Promise<PaymentObject> {
    const payment = await liveWavePayment(merchant, amount);
    wave().pay(payment.id);
    const delivered = await postNotification(webhookUrl(), waveNotification(payment.id));
    expect(delivered).toEqual({ status: 200, body: { received: true } });
    const succeeded = await getPayment(service.http, merchant.liveKey, payment.id);
    expect(succeeded.status).toBe('succeeded');
    return succeeded;
  }

  describe('creating a live payment with provider wave (aggregator mode)', () => {
    it('is refused with 422 aggregated_identity_required before the identity is set, and Wave is not called', async () => {
      const merchant = await newMerchant();
      const requestsBefore = wave().requests.length;

      const refused = await createPayment(service.http, merchant.liveKey, {
        amount: 10_000,
        provider: 'wave',
      });

      expectError(refused, 422, 'aggregated_identity_required');
      expect(wave().requests.length).toBe(requestsBefore);
      expect(await allPaymentIds(service.http, merchant.liveKey)).toEqual([]);
    });

    it('once the identity is set: 201 processing, next_action is the launch URL of the session Wave was asked for', async () => {
      const merchant = await waveMerchant();

      const created = await liveWavePayment(merchant, 12_500, { client_reference: 'order-42' });

      const session = wave().session(created.id);
      expect(created).toEqual(
        expect.objectContaining({
          livemode: true,
          amount: 12_500,
          status: 'processing',
          provider: 'wave',
          fee: 125,
          net: 12_375,
          client_reference: 'order-42',
          provider_transaction_id: null,
          checkout_url: `${service.url}/checkout/${created.id}?cs=${encodeURIComponent(clientSecretOf(created))}`,
          next_action: { type: 'redirect', url: session.wave_launch_url },
        }),
      );
      expect(session.wave_launch_url).toBe(`${wave().url}/c/${session.id}`);

      const [sent, ...more] = waveSessionCreations(wave(), created.id);
      expect(more).toEqual([]);
      // Wave takes the amount as a string of whole XOF and sends the customer back to our hosted page.
      expect(sent?.body).toEqual({
        amount: '12500',
        currency: 'XOF',
        client_reference: created.id,
        aggregated_merchant_id: merchant.aggregatedMerchantId,
        success_url: created.checkout_url,
        error_url: created.checkout_url,
      });
      expect(sent?.headers).toEqual(
        expect.objectContaining({
          authorization: `Bearer ${WAVE_API_KEY}`,
          'content-type': 'application/json',
          'idempotency-key': expect.stringMatching(/^.{1,255}$/),
        }),
      );
      expect(await getPayment(service.http, merchant.liveKey, created.id)).toEqual(created);
    });

    it('the customer pay step on a live payment created without provider starts Wave and redirects to it, once', async () => {
      const merchant = await waveMerchant();
      const created = await newPayment(service.http, merchant.liveKey, { amount: 3_000 });
      expect(created.status).toBe('requires_payment_method');
      expect(waveSessionCreations(wave(), created.id)).toEqual([]);
      const cs = encodeURIComponent(clientSecretOf(created));

      const view = await service.http.get(`/v1/public/payments/${created.id}?cs=${cs}`);
      expect(view.body.available_providers).toEqual(['wave', 'orange_money']);

      const pay = () =>
        service.http.post(`/v1/public/payments/${created.id}/pay?cs=${cs}`, {
          body: { provider: 'wave', phone: '+221771234567' },
        });
      const paid = await pay();
      const session = wave().session(created.id);
      expect({ status: paid.status, body: paid.body }).toEqual({
        status: 200,
        body: expect.objectContaining({
          id: created.id,
          livemode: true,
          status: 'processing',
          provider: 'wave',
          next_action: { type: 'redirect', url: session.wave_launch_url },
          return_url: null,
        }),
      });
      expect(waveSessionCreations(wave(), created.id).map((request) => request.body)).toEqual([
        {
          amount: '3000',
          currency: 'XOF',
          client_reference: created.id,
          aggregated_merchant_id: merchant.aggregatedMerchantId,
          success_url: created.checkout_url,
          error_url: created.checkout_url,
        },
      ]);

      // A second click (or the back button) gets the same session; Wave is not asked again.
      const again = await pay();
      expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: paid.body });
      expect(waveSessionCreations(wave(), created.id)).toHaveLength(1);
    });

    it('a live payment created before the identity is set does not offer wave to the customer, and Wave is not called', async () => {
      const merchant = await newMerchant();
      const created = await newPayment(service.http, merchant.liveKey, { amount: 3_000 });
      const cs = encodeURIComponent(clientSecretOf(created));

      const view = await service.http.get(`/v1/public/payments/${created.id}?cs=${cs}`);
      expect(view.body.available_providers).toEqual(['orange_money']);
      const refused = await service.http.post(`/v1/public/payments/${created.id}/pay?cs=${cs}`, {
        body: { provider: 'wave' },
      });

      expectError(refused, 400, 'validation_error', ['provider']);
      expect(waveSessionCreations(wave(), created.id)).toEqual([]);
      expect((await getPayment(service.http, merchant.liveKey, created.id)).status).toBe(
        'requires_payment_method',
      );
    });
  });

  describe('the Wave webhook', () => {
    it('checkout.session.completed: 200, succeeded with the transaction id, 1% fee, net credited once however often it comes', async () => {
      const merchant = await waveMerchant();
      const payment = await liveWavePayment(merchant, 20_000);
      const session = wave().pay(payment.id);
      const notification = waveNotification(payment.id);

      const delivered = await postNotification(webhookUrl(), notification);

      expect(delivered).toEqual({ status: 200, body: { received: true } });
      const succeeded = await getPayment(service.http, merchant.liveKey, payment.id);
      expect(succeeded).toEqual({
        ...payment,
        status: 'succeeded',
        fee: 200,
        net: 19_800,
        provider_transaction_id: session.transaction_id,
        succeeded_at: service.clock.now().toISOString(),
        // Paid: the customer's next stop is our hosted page, which shows how it ended.
        next_action: { type: 'redirect', url: payment.checkout_url },
      });
      expect(session.transaction_id).toMatch(/^T_/);
      await expectBalance(service.http, merchant.liveKey, { available: 19_800, pending: 0 });

      // Wave delivers at least once: the same bytes again, and a fresh event for the same session,
      // a second later (a second success would move succeeded_at).
      service.clock.advance(1_000);
      expect(await postNotification(webhookUrl(), notification)).toEqual({
        status: 200,
        body: { received: true },
      });
      expect(await postNotification(webhookUrl(), waveNotification(payment.id))).toEqual({
        status: 200,
        body: { received: true },
      });
      expect(await getPayment(service.http, merchant.liveKey, payment.id)).toEqual(succeeded);

      // Credits reach the ledger in the order the payments succeeded: once this later one has
      // arrived, a second credit of the first would have arrived too.
      const later = await paidByWebhook(merchant, 1_000);
      expect({ fee: later.fee, net: later.net }).toEqual({ fee: 10, net: 990 });
      await expectBalance(service.http, merchant.liveKey, { available: 19_800 + 990, pending: 0 });
    });

    it('a forged signature, a tampered body, a stale or future timestamp, no signature: 401 and the payment unchanged', async () => {
      const merchant = await waveMerchant();
      const payment = await liveWavePayment(merchant, 5_000);
      wave().pay(payment.id);
      const genuine = waveNotification(payment.id);
      const nowSeconds = Math.floor(service.clock.now().getTime() / 1000);
      const { ['wave-signature']: signature, ...unsigned } = genuine.headers;
      expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      const event = JSON.parse(genuine.rawBody);

      const attempts = {
        forged: {
          headers: {
            ...genuine.headers,
            'wave-signature': waveSignatureHeader('not-the-secret', nowSeconds, genuine.rawBody),
          },
          rawBody: genuine.rawBody,
        },
        tampered: {
          headers: genuine.headers,
          rawBody: JSON.stringify({ ...event, data: { ...event.data, amount: '50000' } }),
        },
        stale: wave().notification(payment.id, {
          at: new Date(service.clock.now().getTime() - 301_000),
        }),
        future: wave().notification(payment.id, {
          at: new Date(service.clock.now().getTime() + 302_000),
        }),
        unsigned: { headers: unsigned, rawBody: genuine.rawBody },
      };
      const replies: Record<string, unknown> = {};
      for (const [name, attempt] of Object.entries(attempts)) {
        const reply = await postNotification(webhookUrl(), attempt);
        replies[name] = { status: reply.status, code: reply.body?.error?.code };
      }

      const rejected = { status: 401, code: 'authentication_required' };
      expect(replies).toEqual({
        forged: rejected,
        tampered: rejected,
        stale: rejected,
        future: rejected,
        unsigned: rejected,
      });
      expect(await getPayment(service.http, merchant.liveKey, payment.id)).toEqual(payment);

      // Inside the 300-second tolerance the same event is taken: the refusals above were the checks.
      const late = wave().notification(payment.id, {
        at: new Date(service.clock.now().getTime() - 299_000),
      });
      expect(await postNotification(webhookUrl(), late)).toEqual({
        status: 200,
        body: { received: true },
      });
      expect((await getPayment(service.http, merchant.liveKey, payment.id)).status).toBe(
        'succeeded',
      );
    });

    it("checkout.session.payment_failed: failed, with Wave's error code as the reason", async () => {
      const merchant = await waveMerchant();
      const payment = await liveWavePayment(merchant, 5_000);
      wave().decline(payment.id, 'insufficient-funds');

      const delivered = await postNotification(webhookUrl(), waveNotification(payment.id));

      expect(delivered).toEqual({ status: 200, body: { received: true } });
      expect(JSON.parse(waveNotification(payment.id).rawBody).type).toBe(
        'checkout.session.payment_failed',
      );
      expect(await getPayment(service.http, merchant.liveKey, payment.id)).toEqual({
        ...payment,
        status: 'failed',
        failure_reason: 'insufficient-funds',
        next_action: { type: 'redirect', url: payment.checkout_url },
      });
    });
  });

  describe('refunds in live mode', () => {
    it('a full refund of a Wave payment: pending, then Wave refunds the session and the payment is refunded; the fee stays taken', async () => {
      const merchant = await waveMerchant();
      const refunded = await paidByWebhook(merchant, 10_000);
      await paidByWebhook(merchant, 5_000);
      await expectBalance(service.http, merchant.liveKey, { available: 9_900 + 4_950, pending: 0 });
      const sessionId = wave().session(refunded.id).id;

      const refund = await createRefund(service.http, merchant.liveKey, { payment: refunded.id });

      expect({ status: refund.status, body: refund.body }).toEqual({
        status: 201,
        body: {
          object: 'refund',
          id: expect.stringMatching(/^re_[0-9A-Za-z]{20,}$/),
          payment: refunded.id,
          amount: 10_000,
          status: 'pending',
          failure_reason: null,
          created_at: service.clock.now().toISOString(),
        },
      });
      service.clock.advance(1_000);
      const after = await eventuallyStatus(service.http, merchant.liveKey, refunded.id, 'refunded');
      expect(after).toEqual({ ...refunded, status: 'refunded', amount_refunded: 10_000 });
      expect(wave().refundedSessions.has(sessionId)).toBe(true);
      const asked = wave().requests.filter(
        (request) => request.path === `/v1/checkout/sessions/${sessionId}/refund`,
      );
      expect(asked.map((request) => request.method)).toEqual(['POST']);
      expect(asked[0]?.headers['idempotency-key']).toBe(refund.body.id);
      // The whole amount left `available`; the 100 XOF fee of the refunded payment was not returned.
      await expectBalance(service.http, merchant.liveKey, {
        available: 14_850 - 10_000,
        pending: 0,
      });
    });
  });

  describe('expiry of a live Wave payment', () => {
    it('unpaid at 30 minutes: Wave is asked first, then the payment is expired', async () => {
      const merchant = await waveMerchant();
      const payment = await liveWavePayment(merchant, 2_000);
      const sessionId = wave().session(payment.id).id;
      expect(Date.parse(payment.expires_at) - Date.parse(payment.created_at)).toBe(
        PAYMENT_LIFETIME_MS,
      );

      service.clock.set(new Date(payment.expires_at));

      const expired = await eventuallyStatus(service.http, merchant.liveKey, payment.id, 'expired');
      expect(expired).toEqual({
        ...payment,
        status: 'expired',
        next_action: { type: 'redirect', url: payment.checkout_url },
      });
      // Reconciliation (a minute after the start, then backing off) and the expiry both ask.
      expect(
        requestsTo(wave().requests, 'GET', `/v1/checkout/sessions/${sessionId}`),
      ).toBeGreaterThanOrEqual(1);
    });

    it('paid at Wave but no webhook: at 30 minutes the expiry asks Wave and the payment succeeds instead of expiring', async () => {
      const merchant = await waveMerchant();
      const payment = await liveWavePayment(merchant, 8_000);
      const session = wave().pay(payment.id);

      service.clock.set(new Date(payment.expires_at));

      const succeeded = await eventuallyStatus(
        service.http,
        merchant.liveKey,
        payment.id,
        'succeeded',
      );
      expect(succeeded).toEqual({
        ...payment,
        status: 'succeeded',
        fee: 80,
        net: 7_920,
        provider_transaction_id: session.transaction_id,
        succeeded_at: payment.expires_at,
        next_action: { type: 'redirect', url: payment.checkout_url },
      });
      await expectBalance(service.http, merchant.liveKey, { available: 7_920, pending: 0 });
    });
  });
});
