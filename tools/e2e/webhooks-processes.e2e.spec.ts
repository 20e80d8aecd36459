import { APP_NAMES } from '@xaalis/contracts';
import {
  createTestDatabase,
  describeWithKafka,
  describeWithPostgres,
  startKafkaMock,
  type KafkaMock,
  type TestDatabase,
} from '@xaalis/testing';
import { DELIVERY_TIMEOUT_MS } from '@xaalis/webhook-dispatch';
import {
  answer,
  createTestCertificates,
  hang,
  redirect,
  startHttpsReceiver,
  type HttpsReceiver,
  type ReceiverBehaviour,
  type ReceiverReply,
  type TestCertificates,
} from '@xaalis/webhook-sender';
import { verifyWebhook } from '@xaalis/webhook-signature';
import { serviceEnv, sharedSecrets, tempDataDir } from './support/fixtures';
import { HttpClient } from './support/http';
import { expectNoSecretsIn } from './support/leaks';
import { merchantFactory, type TestMerchant } from './support/merchant';
import { eventually, getPayment, succeededPayment } from './support/payments';
import { killAllStarted, sleep, startApp, type ManagedProcess } from './support/processes';
import { timedScript, untilRequests } from './support/webhook-receiver';

/** Long enough to see each failed attempt recorded before the next one, short enough to wait for. */
const RETRY_BASE_MS = 4_000;
/** The shortest lease WEBHOOK_LEASE_MS allows (above the 10 s send timeout): a killed send comes due again after it. */
const LEASE_MS = 15_000;

type Delivery = Record<string, unknown> & { next_attempt_at: string | null };

/**
 * Issue 4, item 7, with the webhooks app as its own process: events reach its one
 * `@EventPattern` over Kafka (the kcat mock cluster), and the merchant's HTTPS receiver on
 * loopback is trusted the way a deployment trusts one, through NODE_EXTRA_CA_CERTS given to that
 * process alone (no test agent). Its leased deliveries survive a `kill -9` in Postgres.
 */
describeWithPostgres('webhooks as a process', () => {
  describeWithKafka('six processes over Kafka, receiver trusted by NODE_EXTRA_CA_CERTS', () => {
    const secrets = sharedSecrets();
    const dataDir = tempDataDir('webhooks-processes');
    let kafka: KafkaMock | undefined;
    let db: TestDatabase | undefined;
    let certs: TestCertificates | undefined;
    let http: HttpClient;
    /** Every process started, the killed one included: their output is checked last. */
    const runs: ManagedProcess[] = [];
    let webhooks: ManagedProcess;
    const receivers: HttpsReceiver[] = [];
    const merchants: TestMerchant[] = [];
    const makeMerchant = merchantFactory(() => http);

    const env = (): Record<string, string | undefined> => ({
      ...serviceEnv(),
      ...secrets,
      KAFKA_BROKERS: kafka!.brokers.join(','),
      DATABASE_URL: db!.url,
      DATA_DIR: dataDir.path,
      WEBHOOK_ALLOWED_HOSTS: 'localhost',
      WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS),
      WEBHOOK_LEASE_MS: String(LEASE_MS),
      RATE_LIMIT_PER_SECOND: '10000',
      RATE_LIMIT_BURST: '10000',
      IP_RATE_LIMIT_PER_SECOND: '10000',
      IP_RATE_LIMIT_BURST: '10000',
      // Whatever the runner's shell holds: only the webhooks process is told to trust the CA.
      NODE_EXTRA_CA_CERTS: undefined,
    });

    const start = async (app: string, extra: Record<string, string> = {}) => {
      const { run, port } = await startApp(app, { ...env(), ...extra });
      runs.push(run);
      return { run, port };
    };
    const startWebhooks = async () =>
      (await start('webhooks', { NODE_EXTRA_CA_CERTS: certs!.caPath })).run;

    beforeAll(async () => {
      kafka = await startKafkaMock();
      db = await createTestDatabase();
      certs = createTestCertificates();
      const started = Date.now();
      const [gateway] = await Promise.all([
        start('gateway'),
        start('payments'),
        start('billing'),
        start('payouts'),
        startWebhooks().then((run) => (webhooks = run)),
      ]);
      http = new HttpClient(`http://127.0.0.1:${gateway.port}`);
      console.log(
        `webhooks-processes: ${APP_NAMES.length} apps ready in ${Date.now() - started} ms`,
      );
    }, 180_000);

    afterAll(async () => {
      await killAllStarted();
      await Promise.all(receivers.map((receiver) => receiver.close()));
      await db?.drop();
      await kafka?.stop();
      certs?.remove();
      dataDir.remove();
    });

    const newMerchant = async () => {
      const merchant = await makeMerchant();
      merchants.push(merchant);
      return merchant;
    };

    const receiver = async (behaviour: ReceiverBehaviour = answer(200)) => {
      const started = await startHttpsReceiver({ cert: certs!.cert, key: certs!.key, behaviour });
      receivers.push(started);
      return started;
    };

    /** The account's default URL, once the webhooks process has its endpoint (account.updated over Kafka). */
    const subscribe = async (merchant: TestMerchant, url: string) => {
      const patched = await http.patch('/v1/account', {
        bearer: merchant.testKey,
        body: { webhook_url: url },
      });
      expect(patched.status).toBe(200);
      const endpoints = await eventually(
        async () => {
          const listed = await merchant.owner.get(
            `/dashboard/v1/merchants/${merchant.merchantId}/test/webhook-endpoints`,
          );
          return listed.status === 200 ? (listed.body.data as Array<{ url: string }>) : [];
        },
        (list) => list.length === 1,
        30_000,
      );
      expect(endpoints.map((endpoint) => endpoint.url)).toEqual([url]);
    };

    const deliveries = async (merchant: TestMerchant): Promise<Delivery[]> => {
      const listed = await http.get('/v1/webhook-deliveries?limit=20', {
        bearer: merchant.testKey,
      });
      expect({ status: listed.status, text: listed.text }).toEqual({
        status: 200,
        text: expect.any(String),
      });
      return listed.body.data as Delivery[];
    };

    /** The merchant's only delivery, once `done` holds for it. */
    const onlyDelivery = async (
      merchant: TestMerchant,
      done: (delivery: Delivery) => boolean,
      timeoutMs = 30_000,
    ): Promise<Delivery> => {
      const seen = await eventually(
        () => deliveries(merchant),
        (list) => list.length === 1 && done(list[0]!),
        timeoutMs,
      );
      expect(seen).toHaveLength(1);
      return seen[0]!;
    };

    it('delivers payment.succeeded from the Kafka consumer, signed, carrying GET /v1/payments/{id}', async () => {
      const merchant = await newMerchant();
      const hooks = await receiver();
      await subscribe(merchant, hooks.url('/xaalis/webhooks'));

      const payment = await succeededPayment(http, merchant.testKey, 2_500);
      const delivery = await onlyDelivery(merchant, (d) => d.status === 'succeeded');
      const current = await getPayment(http, merchant.testKey, payment.id);

      // First, so a delivery that never succeeded shows its last_error (a TLS failure, say).
      expect(delivery).toEqual({
        id: expect.stringMatching(/^whd_/),
        object: 'webhook_delivery',
        endpoint: expect.stringMatching(/^we_/),
        event: expect.stringMatching(/^evt_/),
        event_type: 'payment.succeeded',
        status: 'succeeded',
        attempts: 1,
        last_status_code: 200,
        last_error: null,
        next_attempt_at: null,
        created_at: expect.any(String),
      });

      expect(hooks.requests).toHaveLength(1);
      const [received] = hooks.requests;
      expect(received).toMatchObject({ method: 'POST', path: '/xaalis/webhooks' });
      expect(received!.headers['content-type']).toBe('application/json');
      const event = verifyWebhook<Record<string, unknown>>({
        rawBody: received!.rawBody,
        header: received!.headers['xaalis-signature'],
        secret: merchant.webhookSecret,
      });
      expect(received!.headers['xaalis-event-id']).toBe(event.id);
      expect(delivery.event).toBe(event.id);
      expect(event).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: 'payment.succeeded',
        livemode: false,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        data: { object: current },
      });
    });

    /**
     * A merchant whose receiver plays `first`, then 200: its delivery once the first attempt is
     * recorded, when that was seen, and when each request arrived.
     */
    const failFirst = async (first: ReceiverReply) => {
      const merchant = await newMerchant();
      const script = timedScript([first, answer(200)]);
      const hooks = await receiver(script.behaviour);
      await subscribe(merchant, hooks.url());
      await succeededPayment(http, merchant.testKey, 1_500);
      const failed = await onlyDelivery(merchant, (d) => d.attempts === 1);
      return { merchant, hooks, arrivals: script.arrivals, failed, seenAt: Date.now() };
    };

    /** Then the attempt after the backoff, which succeeds: the same event again. */
    const expectSentAgain = async (run: Awaited<ReturnType<typeof failFirst>>) => {
      const delivered = await onlyDelivery(run.merchant, (d) => d.status !== 'pending');
      expect(delivered).toEqual({
        ...run.failed,
        status: 'succeeded',
        attempts: 2,
        last_status_code: 200,
        last_error: null,
        next_attempt_at: null,
      });
      expect(run.hooks.requests).toHaveLength(2);
      const [first, second] = run.hooks.requests;
      expect(second!.headers['xaalis-event-id']).toBe(run.failed.event);
      expect(first!.headers['xaalis-event-id']).toBe(run.failed.event);
      expect(second!.rawBody.equals(first!.rawBody)).toBe(true);
      // Not before the schedule said.
      expect(run.arrivals[1]).toBeGreaterThanOrEqual(Date.parse(run.failed.next_attempt_at!));
    };

    it('records a 302 and a receiver hanging past 10 s as failed attempts, and sends each again on schedule', async () => {
      // Side by side: the hanging endpoint must not hold back the other merchant's delivery.
      const [redirected, hanging] = await Promise.all([
        failFirst(redirect('https://169.254.169.254/latest/meta-data/')),
        failFirst(hang()),
      ]);

      expect(redirected.failed).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_status_code: 302,
        last_error: 'HTTP 302: redirects are not followed',
      });
      const redirectedNext = Date.parse(redirected.failed.next_attempt_at!);
      expect(redirectedNext).toBeGreaterThanOrEqual(redirected.arrivals[0]! + RETRY_BASE_MS);
      expect(redirectedNext).toBeLessThanOrEqual(redirected.seenAt + RETRY_BASE_MS);
      // Recorded while the other receiver was still being waited on.
      expect(redirected.seenAt).toBeLessThan(hanging.arrivals[0]! + DELIVERY_TIMEOUT_MS);

      expect(hanging.failed).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_status_code: null,
        last_error: `timeout: no response within ${DELIVERY_TIMEOUT_MS} ms`,
      });
      // The dispatcher waited the full 10 s (less the TLS handshake before the request arrived),
      // then hung up.
      const hangingNext = Date.parse(hanging.failed.next_attempt_at!);
      expect(hangingNext).toBeGreaterThanOrEqual(
        hanging.arrivals[0]! + DELIVERY_TIMEOUT_MS - 1_000 + RETRY_BASE_MS,
      );
      expect(hangingNext).toBeLessThanOrEqual(hanging.seenAt + RETRY_BASE_MS);
      await expect(hanging.hooks.requests[0]!.replied).resolves.toBe('aborted');

      await Promise.all([expectSentAgain(redirected), expectSentAgain(hanging)]);
    });

    it(
      'sends a delivery cut by kill -9 again from the restarted process once its lease ends, then no more',
      async () => {
        const merchant = await newMerchant();
        const script = timedScript([hang(), answer(200)]);
        const hooks = await receiver(script.behaviour);
        await subscribe(merchant, hooks.url());
        await succeededPayment(http, merchant.testKey, 3_000);

        // The receiver holds the request unanswered; the row is leased, due again when the lease ends.
        await untilRequests(hooks, 1, 30_000);
        const leased = await onlyDelivery(merchant, () => true);
        expect(leased).toMatchObject({
          status: 'pending',
          attempts: 0,
          last_status_code: null,
          last_error: null,
        });
        const leaseEnds = Date.parse(leased.next_attempt_at!);
        expect(leaseEnds - script.arrivals[0]!).toBeGreaterThan(LEASE_MS - 5_000);
        expect(leaseEnds - script.arrivals[0]!).toBeLessThanOrEqual(LEASE_MS);

        expect(await webhooks.kill9()).toEqual({ code: null, signal: 'SIGKILL' });
        expect(webhooks.groupMembers()).toEqual([]);
        await expect(hooks.requests[0]!.replied).resolves.toBe('aborted');
        webhooks = await startWebhooks();

        await untilRequests(hooks, 2, LEASE_MS + 30_000);
        expect(script.arrivals[1]).toBeGreaterThanOrEqual(leaseEnds);
        const [cut, resent] = hooks.requests;
        expect(resent!.headers['xaalis-event-id']).toBe(leased.event);
        expect(cut!.headers['xaalis-event-id']).toBe(leased.event);
        expect(resent!.rawBody.equals(cut!.rawBody)).toBe(true);
        const event = verifyWebhook({
          rawBody: resent!.rawBody,
          header: resent!.headers['xaalis-signature'],
          secret: merchant.webhookSecret,
        });
        expect(event).toMatchObject({ id: leased.event, type: 'payment.succeeded' });

        // One attempt counted: the crash cut the first before it had an outcome, so only its
        // lease was written and it does not use up one of the 12.
        const delivered = await onlyDelivery(merchant, (d) => d.status !== 'pending');
        expect(delivered).toEqual({
          ...leased,
          status: 'succeeded',
          attempts: 1,
          last_status_code: 200,
          last_error: null,
          next_attempt_at: null,
        });

        // Fifteen polls of the worker later, nothing more was sent.
        await sleep(3_000);
        expect(hooks.requests).toHaveLength(2);
        expect(await deliveries(merchant)).toEqual([delivered]);
      },
      LEASE_MS + 120_000,
    );

    it('consumes new events in the restarted process', async () => {
      expect(runs.filter((run) => run.name === 'webhooks')).toHaveLength(2);
      const merchant = await newMerchant();
      const hooks = await receiver();
      await subscribe(merchant, hooks.url());
      await succeededPayment(http, merchant.testKey, 4_000);
      const delivery = await onlyDelivery(merchant, (d) => d.status === 'succeeded');
      expect(delivery).toMatchObject({ event_type: 'payment.succeeded', attempts: 1 });
      expect(hooks.requests.map((r) => r.headers['xaalis-event-id'])).toEqual([delivery.event]);
    });

    it('prints no secret in the output of any process', () => {
      expect(merchants.length).toBeGreaterThan(0);
      expectNoSecretsIn(
        runs.map((run, index) => ({ name: `${run.name} #${index}`, text: run.output() })),
        [
          ...merchants.flatMap((m) => [m.testKey, m.liveKey, m.webhookSecret]),
          secrets.SECRET_HASH_KEY,
          secrets.AUTH_SECRET,
        ],
      );
    });
  });
});
