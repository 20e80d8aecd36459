import type { FailpointName } from '@xaalis/failpoints';
import { expectLedgerBalanced } from '@xaalis/ledger';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import { startCrashableService, type RunningService } from './support/crashable-service';
import { idempotencyKey, sharedSecrets, tempDataDir } from './support/fixtures';
import { HttpClient, type HttpResult } from './support/http';
import { newTestMerchant, type TestMerchant } from './support/merchant';
import { refundHoldStatus, refundsOf } from './support/payment-records';
import { eventually, expectBalance, succeededPayment } from './support/payments';
import { killAllStarted } from './support/processes';

const LEASE_MS = 1_000;

/**
 * Issue 16: an idempotent write whose process dies at any step, retried with the same key, answers
 * what the first run made or makes exactly one. Each case starts the service (`npm start`'s entry)
 * with one failpoint armed to crash, sends the write, sees the process die (SIGKILL), and retries
 * the same request against another service on the same database (a restart, or a replica), once
 * the crashed run's lease (IDEMPOTENCY_LEASE_MS) is over. Then it counts what exists.
 */
describeWithPostgres('idempotent writes retried after a crash at each step', () => {
  const secrets = sharedSecrets();
  const dataDir = tempDataDir('crash-retry');
  let db: TestDatabase;
  let survivor: RunningService;
  let merchant: TestMerchant;

  const start = (failpoint?: FailpointName) =>
    startCrashableService(
      {
        ...secrets,
        DATABASE_URL: db.url,
        DATA_DIR: dataDir.path,
        IDEMPOTENCY_LEASE_MS: String(LEASE_MS),
        // Refunds stay pending: what is counted is what the write itself did.
        SANDBOX_SETTLE_MS: '3600000',
      },
      failpoint,
    );

  beforeAll(async () => {
    db = await createTestDatabase();
    survivor = await start();
    merchant = await newTestMerchant(survivor.http);
  }, 180_000);

  afterAll(async () => {
    try {
      if (db) await expectLedgerBalanced(db.pool);
    } finally {
      await killAllStarted();
      await db?.drop();
      dataDir.remove();
    }
  });

  /**
   * Sends `send` to a service armed to crash at `failpoint`, checks it died, then sends the same
   * request (same key, same body) to the survivor until the crashed run's lease lets it run.
   */
  async function crashThenRetry(
    failpoint: FailpointName,
    send: (http: HttpClient) => Promise<HttpResult>,
  ): Promise<HttpResult> {
    const armed = await start(failpoint);
    // The connection dies with the process: no answer (fetch's error is of another realm).
    const lost = await send(armed.http).then(
      (answer) => `answered ${answer.status}`,
      (error: unknown) => String(error),
    );
    expect(lost).toMatch(/fetch failed/);
    expect(await armed.run.exited).toEqual({ code: null, signal: 'SIGKILL' });
    return eventually(
      () => send(survivor.http),
      (result) => result.status !== 409,
      LEASE_MS * 10,
    );
  }

  const expectReplayOf = async (first: HttpResult, again: HttpResult) => {
    expect(again.status).toBe(first.status);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
  };

  describe.each<FailpointName>([
    'idempotency.after_claim',
    'payments.create.before_append',
    'payments.create.after_append',
    'idempotency.before_complete',
  ])('POST /v1/payments, crashed at %s', (failpoint) => {
    it('makes exactly one payment, answered to the retry and replayed after', async () => {
      const key = idempotencyKey();
      const body = { amount: 1_234, description: `crash at ${failpoint}` };
      const send = (http: HttpClient) =>
        http.post('/v1/payments', { bearer: merchant.testKey, idempotencyKey: key, body });

      const retried = await crashThenRetry(failpoint, send);

      expect(retried.status).toBe(201);
      expect(retried.body).toMatchObject({ object: 'payment', ...body });
      await expectReplayOf(retried, await send(survivor.http));
      const listed = await survivor.http.get('/v1/payments?limit=100', {
        bearer: merchant.testKey,
      });
      const made = listed.body.data.filter(
        (payment: { description: string }) => payment.description === body.description,
      );
      expect(made.map((payment: { id: string }) => payment.id)).toEqual([retried.body.id]);
    }, 180_000);
  });

  describe('POST /v1/refunds', () => {
    let paymentId: string;
    let available: number;
    const refunded: string[] = [];

    beforeAll(async () => {
      const payment = await succeededPayment(survivor.http, merchant.testKey, 10_000);
      const funding = await succeededPayment(survivor.http, merchant.testKey, 10_000);
      paymentId = payment.id;
      available = payment.net + funding.net;
      await expectBalance(survivor.http, merchant.testKey, { available, pending: 0 });
    }, 60_000);

    it.each<FailpointName>([
      'idempotency.after_claim',
      'refunds.after_request',
      'refunds.after_hold',
      'idempotency.before_complete',
    ])(
      'crashed at %s: exactly one refund, held once',
      async (failpoint) => {
        const key = idempotencyKey();
        const send = (http: HttpClient) =>
          http.post('/v1/refunds', {
            bearer: merchant.testKey,
            idempotencyKey: key,
            body: { payment: paymentId, amount: 100 },
          });

        const retried = await crashThenRetry(failpoint, send);

        expect(retried.status).toBe(201);
        expect(retried.body).toMatchObject({ object: 'refund', payment: paymentId, amount: 100 });
        await expectReplayOf(retried, await send(survivor.http));
        refunded.push(retried.body.id);
        const recorded = await eventually(
          () => refundsOf(db.pool, paymentId),
          (refunds) => refunds.length >= refunded.length,
        );
        expect(recorded.map((refund) => refund.refundId)).toEqual(refunded);
        expect(await refundHoldStatus(db.pool, retried.body.id)).toBe('held');
        await expectBalance(survivor.http, merchant.testKey, {
          available: available - 100 * refunded.length,
          pending: 100 * refunded.length,
        });
      },
      180_000,
    );
  });

  describe.each<FailpointName>(['identity.after_append', 'idempotency.before_complete'])(
    'POST …/restricted-api-keys, crashed at %s',
    (failpoint) => {
      it('makes exactly one key, whose secret shown to the retry works', async () => {
        const path = `/dashboard/v1/merchants/${merchant.merchantId}/test/restricted-api-keys`;
        const keys = () =>
          merchant.owner.get(
            `/dashboard/v1/merchants/${merchant.merchantId}/test/api-keys?limit=100`,
          );
        const before = (await keys()).body.data.length;
        const key = idempotencyKey();
        const cookie = `better-auth.session_token=${merchant.owner.sessionToken}`;
        const send = (http: HttpClient) =>
          http.post(path, {
            idempotencyKey: key,
            body: { scopes: ['balance:read'] },
            headers: { cookie },
          });

        const retried = await crashThenRetry(failpoint, send);

        expect(retried.status).toBe(201);
        expect(retried.body.secret_key).toMatch(/^rk_test_/);
        const balance = await survivor.http.get('/v1/balance', { bearer: retried.body.secret_key });
        expect(balance.status).toBe(200);
        expect((await keys()).body.data.length).toBe(before + 1);
        // A replay shows the key without its secret (CONTRACT 3 and spec 2.7).
        const replay = await send(survivor.http);
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(replay.body).toMatchObject({ id: retried.body.id });
        expect(replay.body.secret_key).toBeUndefined();
      }, 180_000);
    },
  );
});
