import { retryDelayMs } from '@xaalis/webhook-dispatch';
import { answer, type HttpsReceiver } from '@xaalis/webhook-sender';
import { verifyWebhook } from '@xaalis/webhook-signature';
import { idempotencyKey } from './support/fixtures';
import type { InProcessService } from './support/in-process-service';
import { merchantFactory, type TestMerchant } from './support/merchant';
import {
  eventually,
  expectError,
  getPayment,
  newPayment,
  succeededPayment,
  testHelper,
} from './support/payments';
import { startHttpsWebhookService, type HttpsWebhookService } from './support/webhook-receiver';

const RETRY_BASE_MS = 50;

/**
 * Spec 6 end to end: events from payments become signed deliveries to a real HTTPS receiver on
 * loopback, retried on the service's clock, visible (to their merchant only) in the API. The
 * receiver's throwaway CA is trusted through the dispatcher's agent, since Node reads
 * NODE_EXTRA_CA_CERTS only at start (webhooks-processes.e2e covers that path, with the webhooks
 * app as a process of its own).
 */
describe('webhooks over HTTPS', () => {
  let webhooks: HttpsWebhookService;
  let service: InProcessService;
  const newMerchant = merchantFactory(() => service.http);

  beforeAll(async () => {
    webhooks = await startHttpsWebhookService({ WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS) });
    service = webhooks.service;
  });
  afterAll(() => webhooks?.close());

  const receiver = (): Promise<HttpsReceiver> => webhooks.receiver();

  const setAccountUrl = async (merchant: TestMerchant, url: string) => {
    const patched = await service.http.request('PATCH', '/v1/account', {
      bearer: merchant.testKey,
      body: { webhook_url: url },
    });
    expect(patched.status).toBe(200);
  };

  const deliveries = async (merchant: TestMerchant) => {
    const listed = await service.http.get('/v1/webhook-deliveries?limit=20', {
      bearer: merchant.testKey,
    });
    expect(listed.status).toBe(200);
    return listed.body.data as Array<Record<string, unknown>>;
  };

  /** The merchant's only delivery, once `done` holds for it. */
  const onlyDelivery = async (
    merchant: TestMerchant,
    done: (delivery: Record<string, unknown>) => boolean,
  ) => {
    const seen = await eventually(
      () => deliveries(merchant),
      (list) => list.length === 1 && done(list[0]),
    );
    expect(seen).toHaveLength(1);
    return seen[0];
  };

  /**
   * Waits for each attempt to be recorded, then moves the service's clock by exactly its backoff,
   * so the next attempt comes due (and never a lease's worth, which would let a row be taken twice).
   */
  const driveAttempts = async (merchant: TestMerchant, until: number) => {
    for (let attempts = 1; attempts <= until; attempts += 1) {
      const delivery = await onlyDelivery(merchant, (d) => d.attempts === attempts);
      expect(delivery.attempts).toBe(attempts);
      if (delivery.status !== 'pending') return delivery;
      service.clock.advance(retryDelayMs(RETRY_BASE_MS, attempts));
    }
    return onlyDelivery(merchant, () => true);
  };

  it('POSTs a succeeded payment once, signed with the merchant secret, carrying GET /v1/payments/{id}', async () => {
    const merchant = await newMerchant();
    const hooks = await receiver();
    await setAccountUrl(merchant, hooks.url('/xaalis/webhooks'));
    // account.updated travels over the bus like any event: the default endpoint must exist first.
    await eventually(
      () => listEndpoints(merchant),
      (list) => list.length === 1,
    );

    const payment = await succeededPayment(service.http, merchant.testKey, 2_500);
    const delivery = await onlyDelivery(merchant, (d) => d.status === 'succeeded');
    const current = await getPayment(service.http, merchant.testKey, payment.id);

    expect(hooks.requests).toHaveLength(1);
    const [received] = hooks.requests;
    expect(received).toMatchObject({ method: 'POST', path: '/xaalis/webhooks' });
    const event = verifyWebhook<Record<string, unknown>>({
      rawBody: received.rawBody,
      header: received.headers['xaalis-signature'],
      secret: merchant.webhookSecret,
      now: service.clock.now(),
    });
    expect(received.headers['xaalis-event-id']).toBe(event.id);
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'payment.succeeded',
      livemode: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: { object: current },
    });
    expect(delivery).toEqual({
      id: expect.stringMatching(/^whd_/),
      object: 'webhook_delivery',
      endpoint: expect.stringMatching(/^we_/),
      event: event.id,
      event_type: 'payment.succeeded',
      status: 'succeeded',
      attempts: 1,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
      created_at: expect.any(String),
    });

    const stored = await service.http.get(`/v1/events/${event.id}`, { bearer: merchant.testKey });
    expect(stored.status).toBe(200);
    expect(stored.text).toBe(received.rawBody.toString('utf8'));
    const listed = await service.http.get('/v1/events?type=payment.succeeded&limit=5', {
      bearer: merchant.testKey,
    });
    expect(listed.body).toEqual({ object: 'list', data: [event], has_more: false });
    const none = await service.http.get('/v1/events?type=payment.failed', {
      bearer: merchant.testKey,
    });
    expect(none.body).toEqual({ object: 'list', data: [], has_more: false });
  });

  it('retries 500, 500 and delivers on the third attempt, the same event each time', async () => {
    const merchant = await newMerchant();
    const hooks = await receiver();
    hooks.setBehaviour([answer(500, 'down'), answer(500), answer(200)]);
    await setAccountUrl(merchant, hooks.url());
    await eventually(
      () => listEndpoints(merchant),
      (list) => list.length === 1,
    );

    await succeededPayment(service.http, merchant.testKey, 1_000);
    const delivery = await driveAttempts(merchant, 3);

    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempts: 3,
      last_status_code: 200,
      last_error: null,
    });
    expect(hooks.requests).toHaveLength(3);
    const ids = hooks.requests.map((r) => r.headers['xaalis-event-id']);
    expect(new Set(ids)).toEqual(new Set([delivery.event]));
    const bodies = hooks.requests.map((r) => r.rawBody.toString('utf8'));
    expect(new Set(bodies).size).toBe(1);
  });

  it('marks a delivery failed after 12 failed attempts; a retry then sends it again now', async () => {
    const merchant = await newMerchant();
    const hooks = await receiver();
    hooks.setBehaviour(answer(503, 'maintenance'));
    await setAccountUrl(merchant, hooks.url());
    await eventually(
      () => listEndpoints(merchant),
      (list) => list.length === 1,
    );

    await succeededPayment(service.http, merchant.testKey, 1_000);
    const failed = await driveAttempts(merchant, 12);
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: 12,
      last_status_code: 503,
      last_error: 'HTTP 503: maintenance',
      next_attempt_at: null,
    });
    expect(hooks.requests).toHaveLength(12);

    hooks.setBehaviour(answer(204));
    const retried = await service.http.post(`/v1/webhook-deliveries/${failed.id}/retry`, {
      bearer: merchant.testKey,
    });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({
      id: failed.id,
      status: 'succeeded',
      attempts: 13,
      last_status_code: 204,
      last_error: null,
    });
    expect(hooks.requests).toHaveLength(13);
  });

  it('sends an endpoint only the event types it subscribed to', async () => {
    const merchant = await newMerchant();
    const hooks = await receiver();
    const created = await merchant.owner.request(
      'POST',
      `/dashboard/v1/merchants/${merchant.merchantId}/test/webhook-endpoints`,
      {
        idempotencyKey: idempotencyKey(),
        body: { url: hooks.url(), event_types: ['payment.failed'] },
      },
    );
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      object: 'webhook_endpoint',
      id: expect.stringMatching(/^we_/),
      merchant_id: merchant.merchantId,
      mode: 'test',
      is_default: false,
      managed_by: null,
      url: hooks.url(),
      event_types: ['payment.failed'],
      payload_policy: 'full',
      active: true,
      created_at: expect.any(String),
    });

    await succeededPayment(service.http, merchant.testKey, 1_000);
    const declined = await newPayment(service.http, merchant.testKey, { amount: 1_000 });
    await testHelper(service.http, merchant.testKey, declined.id, 'fail');

    const delivery = await onlyDelivery(merchant, (d) => d.status === 'succeeded');
    expect(delivery).toMatchObject({ endpoint: created.body.id, event_type: 'payment.failed' });
    expect(hooks.requests.map((r) => JSON.parse(r.rawBody.toString('utf8')).type)).toEqual([
      'payment.failed',
    ]);

    const patched = await merchant.owner.request(
      'PATCH',
      `/dashboard/v1/merchants/${merchant.merchantId}/test/webhook-endpoints/${created.body.id}`,
      { body: { active: false } },
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: created.body.id, active: false });
  });

  it('refuses endpoints with a bad URL, unknown event types or no idempotency key', async () => {
    const merchant = await newMerchant();
    const path = `/dashboard/v1/merchants/${merchant.merchantId}/test/webhook-endpoints`;
    const post = (body: unknown) =>
      merchant.owner.request('POST', path, { body, idempotencyKey: idempotencyKey() });
    expectError(
      await post({ url: 'http://localhost/x', event_types: ['*'] }),
      400,
      'validation_error',
      ['url'],
    );
    expectError(
      await post({ url: 'https://10.0.0.1/x', event_types: ['*'] }),
      400,
      'validation_error',
      ['url'],
    );
    expectError(
      await post({ url: 'https://localhost/x', event_types: ['payment.paid'] }),
      400,
      'validation_error',
      ['event_types'],
    );
    expectError(
      await post({ url: 'https://localhost/x', event_types: [] }),
      400,
      'validation_error',
      ['event_types'],
    );
    expectError(
      // No idempotency-key header at all.
      await merchant.owner.request('POST', path, {
        body: { url: 'https://localhost/x', event_types: ['*'] },
      }),
      400,
      'validation_error',
    );
  });

  it("keeps another merchant's deliveries and events invisible", async () => {
    const owner = await newMerchant();
    const other = await newMerchant();
    const hooks = await receiver();
    await setAccountUrl(owner, hooks.url());
    await eventually(
      () => listEndpoints(owner),
      (list) => list.length === 1,
    );
    await succeededPayment(service.http, owner.testKey, 1_000);
    const delivery = await onlyDelivery(owner, (d) => d.status === 'succeeded');

    expect(await deliveries(other)).toEqual([]);
    const asOther = { bearer: other.testKey };
    expectError(
      await service.http.get(`/v1/events/${String(delivery.event)}`, asOther),
      404,
      'not_found',
    );
    expectError(
      await service.http.post(`/v1/webhook-deliveries/${String(delivery.id)}/retry`, asOther),
      404,
      'not_found',
    );
    const events = await service.http.get('/v1/events', asOther);
    expect(events.body).toEqual({ object: 'list', data: [], has_more: false });
    expectError(
      await service.http.get(
        `/v1/webhook-deliveries?starting_after=${String(delivery.id)}`,
        asOther,
      ),
      404,
      'not_found',
    );
    const endpoints = await other.owner.request(
      'GET',
      `/dashboard/v1/merchants/${other.merchantId}/test/webhook-endpoints`,
    );
    expect(endpoints.body).toEqual({ object: 'list', data: [], has_more: false });
  });

  async function listEndpoints(merchant: TestMerchant) {
    const listed = await merchant.owner.request(
      'GET',
      `/dashboard/v1/merchants/${merchant.merchantId}/test/webhook-endpoints`,
    );
    expect(listed.status).toBe(200);
    return listed.body.data as Array<Record<string, unknown>>;
  }
});
