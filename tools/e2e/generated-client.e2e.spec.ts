import { xaalisClient, type XaalisClient } from '../openapi/client/xaalis-client';
import { idempotencyKey } from './support/fixtures';
import { recordExchange } from './support/http';
import { startInProcessService, type InProcessService } from './support/in-process-service';
import { newTestMerchant } from './support/merchant';
import { eventually } from './support/payments';

/**
 * Issue 17: a client generated from the document (openapi-typescript, openapi-fetch) does the
 * work of an integration with no cast: `tsc` in `npm test` compiles this file, so the document's
 * types are held as much as the service's answers.
 */
describe('a client generated from the OpenAPI document', () => {
  let service: InProcessService;
  let client: XaalisClient;

  beforeAll(async () => {
    service = await startInProcessService({ SANDBOX_SETTLE_MS: '100' });
    client = xaalisClient(service.url, (await newTestMerchant(service.http)).testKey);
    // Its exchanges are checked against the document with the other clients' (see jest setup).
    client.use({
      async onResponse({ request, response }) {
        const { pathname, search } = new URL(request.url);
        recordExchange(request.method, pathname + search, response, await response.clone().text());
      },
    });
  });
  afterAll(async () => {
    await service?.close();
  });

  /** The body of a success, or the test fails with the error the service gave. */
  const ok = <Data>(result: { data?: Data; error?: unknown }): Data => {
    if (result.data === undefined) throw new Error(`refused: ${JSON.stringify(result.error)}`);
    return result.data;
  };

  it('creates, reads and lists payments under an idempotency key', async () => {
    const key = idempotencyKey();
    const body = { amount: 2_500, description: 'Thiéboudienne', metadata: { order: '42' } };
    const created = await client.POST('/v1/payments', {
      params: { header: { 'idempotency-key': key } },
      body,
    });
    const payment = ok(created);
    expect(created.response.status).toBe(201);
    expect(payment).toEqual(
      expect.objectContaining({ object: 'payment', amount: 2_500, currency: 'XOF' }),
    );
    expect(payment.status).toBe('requires_payment_method');

    const replayed = await client.POST('/v1/payments', {
      params: { header: { 'idempotency-key': key } },
      body,
    });
    expect(ok(replayed).id).toBe(payment.id);
    expect(replayed.response.headers.get('idempotent-replayed')).toBe('true');

    const read = ok(
      await client.GET('/v1/payments/{id}', { params: { path: { id: payment.id } } }),
    );
    expect(read.metadata).toEqual({ order: '42' });

    const page = ok(
      await client.GET('/v1/payments', { params: { query: { limit: 1, status: read.status } } }),
    );
    expect(page.object).toBe('list');
    expect(page.data.map(({ id }) => id)).toEqual([payment.id]);
  });

  it('refunds part of a payment, then reads and lists the refund', async () => {
    const payment = ok(
      await client.POST('/v1/payments', {
        params: { header: { 'idempotency-key': idempotencyKey() } },
        body: { amount: 2_500 },
      }),
    );
    const succeeded = ok(
      await client.POST('/v1/test_helpers/payments/{id}/succeed', {
        params: { path: { id: payment.id } },
      }),
    );
    expect(succeeded.status).toBe('succeeded');
    await eventually(
      async () => ok(await client.GET('/v1/balance')),
      (balance) => balance.available > 0,
    );

    const created = await client.POST('/v1/refunds', {
      params: { header: { 'idempotency-key': idempotencyKey() } },
      body: { payment: payment.id, amount: 100 },
    });
    const refund = ok(created);
    expect(created.response.status).toBe(201);
    expect(refund).toEqual(
      expect.objectContaining({ object: 'refund', payment: payment.id, amount: 100 }),
    );

    const settled = await eventually(
      async () => {
        service.clock.advance(1_000);
        return ok(await client.GET('/v1/refunds/{id}', { params: { path: { id: refund.id } } }));
      },
      (seen) => seen.status !== 'pending',
    );
    expect(settled).toEqual({ ...refund, status: 'succeeded', failure_reason: null });

    const refunds = ok(
      await client.GET('/v1/refunds', { params: { query: { payment: payment.id } } }),
    );
    expect(refunds.data).toEqual([settled]);
    const after = ok(
      await client.GET('/v1/payments/{id}', { params: { path: { id: payment.id } } }),
    );
    expect({ status: after.status, amount_refunded: after.amount_refunded }).toEqual({
      status: 'succeeded',
      amount_refunded: 100,
    });
  });

  it('narrows an error by its code', async () => {
    const unpaid = ok(
      await client.POST('/v1/payments', {
        params: { header: { 'idempotency-key': idempotencyKey() } },
        body: { amount: 1_000 },
      }),
    );
    const refused = await client.POST('/v1/refunds', {
      params: { header: { 'idempotency-key': idempotencyKey() } },
      body: { payment: unpaid.id },
    });
    expect(refused.response.status).toBe(409);
    const code = refused.error?.error.code;
    // @ts-expect-error the document lists the codes of this route: this is none of them
    expect(code === 'teapot').toBe(false);
    if (code !== 'invalid_state') throw new Error(`expected invalid_state, got ${code}`);
    const narrowed: 'invalid_state' = code;
    expect(narrowed).toBe('invalid_state');
    expect(refused.error?.error.message).toEqual(expect.any(String));
  });
});
