import { expectLedgerBalanced } from '@xaalis/ledger';
import { idempotencyKey } from './support/fixtures';
import { HttpClient, SESSION_COOKIE, type HttpResult } from './support/http';
import { startInProcessService, type InProcessService } from './support/in-process-service';
import { newTestMerchant, type TestMerchant } from './support/merchant';
import { eventually, expectBalance, getPayment, succeededPayment } from './support/payments';

const CONCURRENT = 50;

/**
 * Issue 16: many commands on one stream at once (a merchant's keys, one payment's refunds) never
 * surface as a 500. In one process they take turns; across two processes (two services on one
 * database, as two replicas) conflicts are retried with backoff, and one that still cannot go
 * through is a 503 with Retry-After that changed nothing.
 */
describe('concurrent commands on one stream', () => {
  let first: InProcessService;
  let second: InProcessService;

  // Refunds settle only once the test moves the clocks past this, after every request is in.
  const SETTLE_MS = 60_000;

  beforeAll(async () => {
    const env = { SANDBOX_SETTLE_MS: String(SETTLE_MS) };
    first = await startInProcessService(env);
    second = await startInProcessService(env, { sharing: first });
  }, 120_000);

  afterAll(async () => {
    try {
      if (first) await expectLedgerBalanced(first.db.pool);
    } finally {
      await second?.close();
      await first?.close();
    }
  });

  /** The owner's session on either service (they share the database, so the session too). */
  const dashboardOn = (service: InProcessService, merchant: TestMerchant) => {
    const client = new HttpClient(service.url);
    const cookie = `${SESSION_COOKIE}=${merchant.owner.sessionToken}`;
    return (path: string, body?: unknown) =>
      client.post(path, { idempotencyKey: idempotencyKey(), body, headers: { cookie } });
  };

  /** Half the requests to each service when `across` is true; all to the first otherwise. */
  const servicesFor = (across: boolean) => (index: number) =>
    across && index % 2 === 1 ? second : first;

  const statuses = (results: HttpResult[]) => {
    const counts: Record<number, number> = {};
    for (const result of results) counts[result.status] = (counts[result.status] ?? 0) + 1;
    return counts;
  };

  /** A 503 is allowed only across processes, only with Retry-After, and only as `unavailable`. */
  const expectBusyAnswers = (results: HttpResult[]) => {
    for (const busy of results.filter((result) => result.status === 503)) {
      expect(busy.headers.get('retry-after')).toBe('1');
      expect(busy.body.error.code).toBe('unavailable');
    }
  };

  describe.each([
    ['in one process', false],
    ['across two processes', true],
  ])('%s', (_name, across) => {
    const serviceOf = servicesFor(across);

    it(`issues ${CONCURRENT} restricted keys of one merchant at once, each working`, async () => {
      const merchant = await newTestMerchant(first.http);
      const results = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, index) =>
          dashboardOn(serviceOf(index), merchant)(
            `/dashboard/v1/merchants/${merchant.merchantId}/test/restricted-api-keys`,
            { scopes: ['balance:read'] },
          ),
        ),
      );

      const counts = statuses(results);
      expect(Object.keys(counts).filter((status) => status !== '201' && status !== '503')).toEqual(
        [],
      );
      if (!across) expect(counts).toEqual({ 201: CONCURRENT });
      expectBusyAnswers(results);
      const issued = results.filter((result) => result.status === 201);
      expect(new Set(issued.map((result) => result.body.id)).size).toBe(issued.length);
      for (const [index, key] of issued.entries()) {
        const balance = await serviceOf(index).http.get('/v1/balance', {
          bearer: key.body.secret_key,
        });
        expect(balance.status).toBe(200);
      }
      const listed = await merchant.owner.get(
        `/dashboard/v1/merchants/${merchant.merchantId}/test/api-keys?limit=100`,
      );
      // The secret key made with the merchant, and exactly the keys answered 201.
      expect(listed.body.data).toHaveLength(issued.length + 1);
    });

    it(`refunds one payment ${CONCURRENT} times at once, never beyond its amount`, async () => {
      const merchant = await newTestMerchant(first.http);
      const amount = 5_000;
      const payment = await succeededPayment(first.http, merchant.testKey, amount);
      // Refunds are taken from `available` (the fee is not given back): fund the full amount.
      const funding = await succeededPayment(first.http, merchant.testKey, 20_000);
      const available = payment.net + funding.net;
      await expectBalance(first.http, merchant.testKey, { available, pending: 0 });

      const refund = (index: number, body: Record<string, unknown>) =>
        serviceOf(index).http.post('/v1/refunds', {
          bearer: merchant.testKey,
          idempotencyKey: idempotencyKey(),
          body: { payment: payment.id, ...body },
        });
      // 50 refunds of 100 each (exactly the amount), then 50 of "the rest" of which one may go.
      const parts = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, index) => refund(index, { amount: amount / 50 })),
      );
      const rest = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, index) => refund(index, {})),
      );

      for (const results of [parts, rest]) {
        const counts = statuses(results);
        expect(
          Object.keys(counts).filter((status) => !['201', '409', '503'].includes(status)),
        ).toEqual([]);
        expectBusyAnswers(results);
      }
      if (!across) expect(statuses(parts)).toEqual({ 201: CONCURRENT });
      const refunded = [...parts, ...rest]
        .filter((result) => result.status === 201)
        .reduce((sum, result) => sum + (result.body.amount as number), 0);
      expect(refunded).toBe(amount);
      for (const refused of rest.filter((result) => result.status === 409)) {
        expect(refused.body.error.code).toBe('invalid_state');
      }

      // Held from `available` at once, on its way (`pending`) until the refunds settle.
      await expectBalance(first.http, merchant.testKey, {
        available: available - amount,
        pending: amount,
      });
      // Settlement is the job worker's, on each service's clock: the delay passes on both at once,
      // then a second per poll, so that a retried job's backoff comes due while a job still
      // running keeps its lease (a lease run out would hand its job to another runner).
      first.clock.advance(SETTLE_MS);
      second.clock.advance(SETTLE_MS);
      const settled = await eventually(
        async () => {
          first.clock.advance(1_000);
          second.clock.advance(1_000);
          return getPayment(first.http, merchant.testKey, payment.id);
        },
        (seen) => seen.amount_refunded === amount,
      );
      expect({ status: settled.status, amount_refunded: settled.amount_refunded }).toEqual({
        status: 'refunded',
        amount_refunded: amount,
      });
      await expectBalance(first.http, merchant.testKey, {
        available: available - amount,
        pending: 0,
      });
    });
  });
});
