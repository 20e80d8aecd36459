import type { Pool } from 'pg';
import { APP_NAMES } from '@xaalis/contracts';
import {
  createTestDatabase,
  describeWithKafka,
  describeWithPostgres,
  startKafkaMock,
  type KafkaMock,
  type TestDatabase,
} from '@xaalis/testing';
import {
  createTestCertificates,
  startHttpsReceiver,
  type HttpsReceiver,
  type TestCertificates,
} from '@xaalis/webhook-sender';
import { verifyWebhook } from '@xaalis/webhook-signature';
import { serviceEnv, sharedSecrets, tempDataDir } from './support/fixtures';
import { HttpClient } from './support/http';
import { merchantFactory, type TestMerchant } from './support/merchant';
import { eventually, succeededPayment } from './support/payments';
import { killAllStarted, startApp } from './support/processes';
import { startHttpsWebhookService, type HttpsWebhookService } from './support/webhook-receiver';

/**
 * Merchants registering and paying in each mode, and how many at a time. The order that lost
 * deliveries is forced for every merchant (see below), so a few dozen show a loss as surely as
 * hundreds would, and each costs a sign-up.
 */
const IN_PROCESS_MERCHANTS = 40;
const KAFKA_MERCHANTS = 20;
const AT_ONCE = 6;
/** How long the last deliveries may take once every payment has succeeded. */
const DELIVERED_WITHIN_MS = 20_000;

interface Paid {
  merchant: TestMerchant;
  paymentId: string;
  path: string;
}

/**
 * Issue 16 item 6: every event reaches every endpoint registered before it happened. Many new
 * merchants at once each `PATCH /v1/account` and, as soon as it answers, make a payment succeed.
 * `account.updated` and the payment events travel on separate forwarders in no order between
 * them; here the identity forwarder is held back for the whole run, so every `account.updated`
 * comes after its merchant's payment: the order in which deliveries went missing, made certain
 * rather than left to the machine's load. The URL must already be the default endpoint when the
 * PATCH answers. Zero missed, in both run modes. A merchant who pays before registering shows its
 * event as recorded with no endpoint (`endpoints_matched = 0`), never as a silent gap.
 */
describeWithPostgres('webhooks: registration before an event means its delivery', () => {
  describe('embedded: the six apps in process, over the in-process bus', () => {
    let webhooks: HttpsWebhookService;
    let hooks: HttpsReceiver;
    const newMerchant = merchantFactory(() => webhooks.service.http);

    beforeAll(async () => {
      webhooks = await startHttpsWebhookService();
      hooks = await webhooks.receiver();
    });
    afterAll(() => webhooks?.close());

    it(`delivers payment.succeeded to each of ${IN_PROCESS_MERCHANTS} merchants who registered just before`, async () => {
      const { http, clock, db } = webhooks.service;
      const paid = await registerAndPay(http, newMerchant, hooks, IN_PROCESS_MERCHANTS, db.pool);
      await expectEachDelivered(hooks, paid, db.pool, clock.now());
    });

    it('shows an event recorded before the merchant registered as matching no endpoint', async () => {
      const { http, db } = webhooks.service;
      await expectUnregisteredEventVisible(http, newMerchant, hooks, db.pool);
    });

    it('PATCH /v1/account honours an idempotency key: the same body replays, another is 409', async () => {
      const { http } = webhooks.service;
      const merchant = await newMerchant();
      const body = { webhook_url: hooks.url('/account-key') };
      const first = await http.patch('/v1/account', {
        bearer: merchant.testKey,
        idempotencyKey: 'account-1',
        body,
      });
      const again = await http.patch('/v1/account', {
        bearer: merchant.testKey,
        idempotencyKey: 'account-1',
        body,
      });
      expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([
        200,
        200,
        'true',
      ]);
      expect(again.body).toEqual(first.body);
      const other = await http.patch('/v1/account', {
        bearer: merchant.testKey,
        idempotencyKey: 'account-1',
        body: { webhook_url: hooks.url('/elsewhere') },
      });
      expect([other.status, other.body.error.code]).toEqual([409, 'idempotency_conflict']);
    });
  });

  describeWithKafka('distributed: six processes over Kafka', () => {
    const secrets = sharedSecrets();
    const dataDir = tempDataDir('webhooks-registration');
    let kafka: KafkaMock | undefined;
    let db: TestDatabase | undefined;
    let certs: TestCertificates | undefined;
    let hooks: HttpsReceiver | undefined;
    let http: HttpClient;
    let webhooksMetrics: HttpClient;
    const newMerchant = merchantFactory(() => http);

    beforeAll(async () => {
      kafka = await startKafkaMock();
      db = await createTestDatabase();
      certs = createTestCertificates();
      hooks = await startHttpsReceiver({ cert: certs.cert, key: certs.key });
      const env = {
        ...serviceEnv(),
        ...secrets,
        KAFKA_BROKERS: kafka.brokers.join(','),
        DATABASE_URL: db.url,
        DATA_DIR: dataDir.path,
        WEBHOOK_ALLOWED_HOSTS: 'localhost',
        RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
        IP_RATE_LIMIT_PER_SECOND: '10000',
        IP_RATE_LIMIT_BURST: '10000',
        // Only the webhooks process trusts the receiver's CA, as a deployment would.
        NODE_EXTRA_CA_CERTS: undefined,
      };
      const started = Date.now();
      const ports = new Map(
        await Promise.all(
          APP_NAMES.map(async (app) => {
            const extra = app === 'webhooks' ? { NODE_EXTRA_CA_CERTS: certs!.caPath } : {};
            return [app, (await startApp(app, { ...env, ...extra })).port] as const;
          }),
        ),
      );
      http = new HttpClient(`http://127.0.0.1:${ports.get('gateway')}`);
      webhooksMetrics = new HttpClient(`http://127.0.0.1:${ports.get('webhooks')}`);
      // The exchange's own account is funded on the first start by a test payment whose
      // `payment.succeeded` no merchant endpoint wants: counted once it is in.
      await eventually(
        () => recordedCount(webhooksMetrics, 'no_endpoint'),
        (count) => count === 1,
        30_000,
      );
      console.log(
        `webhooks-registration: ${APP_NAMES.length} apps ready in ${Date.now() - started} ms`,
      );
    }, 180_000);

    afterAll(async () => {
      await killAllStarted();
      await hooks?.close();
      await db?.drop();
      await kafka?.stop();
      certs?.remove();
      dataDir.remove();
    });

    it(`delivers payment.succeeded to each of ${KAFKA_MERCHANTS} merchants who registered just before`, async () => {
      const paid = await registerAndPay(http, newMerchant, hooks!, KAFKA_MERCHANTS, db!.pool);
      await expectEachDelivered(hooks!, paid, db!.pool, new Date());
      expect(await recordedCount(webhooksMetrics, 'delivering')).toBe(KAFKA_MERCHANTS);
    });

    it('shows an event recorded before the merchant registered as matching no endpoint, on /metrics too', async () => {
      await expectUnregisteredEventVisible(http, newMerchant, hooks!, db!.pool);
      // This one, beside the exchange account's funding.
      expect(await recordedCount(webhooksMetrics, 'no_endpoint')).toBe(2);
      expect(await recordedCount(webhooksMetrics, 'delivering')).toBe(KAFKA_MERCHANTS + 1);
    });
  });
});

/**
 * `count` new merchants, `AT_ONCE` at a time, each setting its account URL (a path of its own on
 * the one receiver) and making a payment succeed the moment the PATCH answers, while the identity
 * forwarder is held.
 */
async function registerAndPay(
  http: HttpClient,
  newMerchant: () => Promise<TestMerchant>,
  hooks: HttpsReceiver,
  count: number,
  pool: Pool,
): Promise<Paid[]> {
  const release = await holdIdentityForwarder(pool);
  try {
    return await registerAndPayNow(http, newMerchant, hooks, count);
  } finally {
    await release();
  }
}

/**
 * Stops the identity forwarder (the one that publishes `account.updated`) at its next checkpoint
 * save until the returned function is called, as a slow or stalled forwarder would be: a trigger
 * on its `bus_checkpoints` row waits while the hold lasts. Not a row lock: a transaction holding
 * one would hold back every event store reader (their xmin guard), the payments' too.
 */
async function holdIdentityForwarder(pool: Pool): Promise<() => Promise<void>> {
  await pool.query(`
    CREATE TABLE e2e_forwarder_holds (name TEXT PRIMARY KEY);
    CREATE FUNCTION e2e_hold_forwarder() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      WHILE EXISTS (SELECT 1 FROM e2e_forwarder_holds WHERE name = NEW.name) LOOP
        PERFORM pg_sleep(0.02);
      END LOOP;
      RETURN NEW;
    END $$;
    CREATE TRIGGER e2e_hold_forwarder BEFORE INSERT ON bus_checkpoints
      FOR EACH ROW EXECUTE FUNCTION e2e_hold_forwarder();
    INSERT INTO e2e_forwarder_holds VALUES ('identity');
  `);
  return async () => {
    await pool.query('DELETE FROM e2e_forwarder_holds');
    await pool.query(`
      DROP TRIGGER e2e_hold_forwarder ON bus_checkpoints;
      DROP FUNCTION e2e_hold_forwarder();
      DROP TABLE e2e_forwarder_holds;
    `);
  };
}

async function registerAndPayNow(
  http: HttpClient,
  newMerchant: () => Promise<TestMerchant>,
  hooks: HttpsReceiver,
  count: number,
): Promise<Paid[]> {
  const paid: Paid[] = [];
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < count; i = next++) {
      const merchant = await newMerchant();
      const path = `/hooks/${merchant.merchantId}`;
      const patched = await http.patch('/v1/account', {
        bearer: merchant.testKey,
        body: { webhook_url: hooks.url(path) },
      });
      expect({ status: patched.status, text: patched.text }).toEqual({
        status: 200,
        text: expect.any(String),
      });
      const payment = await succeededPayment(http, merchant.testKey, 1_000 + i);
      paid.push({ merchant, paymentId: payment.id, path });
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, lane));
  expect(paid).toHaveLength(count);
  return paid;
}

/**
 * Each merchant's receiver path got exactly its `payment.succeeded`, signed with its secret, and
 * the webhooks app recorded that event as matching its one endpoint. A miss fails listing the
 * merchants concerned.
 */
async function expectEachDelivered(
  hooks: HttpsReceiver,
  paid: Paid[],
  pool: Pool,
  now: Date,
): Promise<void> {
  const paths = new Set(paid.map(({ path }) => path));
  const mine = () => hooks.requests.filter((request) => paths.has(request.path));
  await eventually(
    async () => mine().length,
    (received) => received >= paid.length,
    DELIVERED_WITHIN_MS,
  );
  const missed = paid
    .filter(({ path }) => !hooks.requests.some((request) => request.path === path))
    .map(({ merchant }) => merchant.merchantId);
  expect(missed).toEqual([]);

  for (const { merchant, paymentId, path } of paid) {
    const received = hooks.requests.filter((request) => request.path === path);
    expect(received).toHaveLength(1);
    const event = verifyWebhook<{ id: string }>({
      rawBody: received[0]!.rawBody,
      header: received[0]!.headers['xaalis-signature'],
      secret: merchant.webhookSecret,
      now,
    });
    expect({ type: event.type, payment: event.data.object.id }).toEqual({
      type: 'payment.succeeded',
      payment: paymentId,
    });
  }

  const recorded = await recordedEvents(
    pool,
    paid.map(({ merchant }) => merchant.merchantId),
  );
  expect(recorded).toEqual(
    paid
      .map(({ merchant }) => ({
        merchant_id: merchant.merchantId,
        type: 'payment.succeeded',
        endpoints_matched: 1,
        deliveries: 1,
      }))
      .sort((a, b) => (a.merchant_id < b.merchant_id ? -1 : 1)),
  );
}

/**
 * A merchant pays, its event is recorded (visible in `GET /v1/events`), then it registers and pays
 * again: the first event matched no endpoint and says so, the second is delivered.
 */
async function expectUnregisteredEventVisible(
  http: HttpClient,
  newMerchant: () => Promise<TestMerchant>,
  hooks: HttpsReceiver,
  pool: Pool,
): Promise<void> {
  const merchant = await newMerchant();
  const early = await succeededPayment(http, merchant.testKey, 700);
  const events = await eventually(
    async () =>
      (await http.get('/v1/events', { bearer: merchant.testKey })).body.data as Array<{
        data: { object: { id: string } };
      }>,
    (data) => data.length === 1,
  );
  expect(events.map((event) => event.data.object.id)).toEqual([early.id]);

  const path = `/hooks/late/${merchant.merchantId}`;
  const patched = await http.patch('/v1/account', {
    bearer: merchant.testKey,
    body: { webhook_url: hooks.url(path) },
  });
  expect(patched.status).toBe(200);
  const later = await succeededPayment(http, merchant.testKey, 800);
  const received = await eventually(
    async () => hooks.requests.filter((request) => request.path === path),
    (requests) => requests.length === 1,
  );
  expect(
    received.map((request) => JSON.parse(request.rawBody.toString('utf8')).data.object.id),
  ).toEqual([later.id]);

  const recorded = await recordedEvents(pool, [merchant.merchantId]);
  expect(
    recorded.map(({ endpoints_matched, deliveries }) => [endpoints_matched, deliveries]).sort(),
  ).toEqual([
    [0, 0],
    [1, 1],
  ]);
}

/** The webhooks app's rows: each event of the merchants with what it matched and got. */
async function recordedEvents(pool: Pool, merchantIds: string[]) {
  const { rows } = await pool.query<{
    merchant_id: string;
    type: string;
    endpoints_matched: number;
    deliveries: number;
  }>(
    `SELECT e.merchant_id, e.type, e.endpoints_matched,
            (SELECT count(*) FROM webhook_deliveries d WHERE d.event_id = e.id)::int AS deliveries
       FROM webhook_events e WHERE e.merchant_id = ANY($1)
      ORDER BY e.merchant_id COLLATE "C", e.id`,
    [merchantIds],
  );
  return rows;
}

/** `webhook_events_recorded_total` of `payment.succeeded` on the webhooks process's /metrics. */
async function recordedCount(metrics: HttpClient, outcome: string): Promise<number> {
  const text = (await metrics.get('/metrics')).text;
  const prefix = `webhook_events_recorded_total{type="payment.succeeded",outcome="${outcome}"} `;
  const line = text.split('\n').find((row) => row.startsWith(prefix));
  return line === undefined ? 0 : Number(line.slice(prefix.length));
}
