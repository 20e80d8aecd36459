import { Kafka, logLevel } from 'kafkajs';
import {
  createTestDatabase,
  describeWithKafka,
  describeWithPostgres,
  startKafkaMock,
  type KafkaMock,
  type TestDatabase,
} from '@xaalis/testing';
import { expectLedgerBalanced } from '@xaalis/ledger';
import { serviceEnv, sharedSecrets, tempDataDir } from './support/fixtures';
import { HttpClient } from './support/http';
import { newTestMerchant } from './support/merchant';
import { killAllStarted, sleep, startProcess, type ManagedProcess } from './support/processes';

const READY = /^([a-z]+) ready on port (\d+)$/;

/**
 * Issue 3: a kill -9 of the payments process between the append and the publish still publishes
 * exactly once after the restart. The payments process is started with a failpoint that makes it
 * SIGKILL itself right before publishing its first integration event, `payment.succeeded` (after
 * the append is durable); restarted without it, its forwarder resumes from its checkpoint.
 */
describeWithPostgres('payments crash between append and publish', () => {
  describeWithKafka('three apps as processes over Kafka', () => {
    const secrets = sharedSecrets();
    const dataDir = tempDataDir('payments-crash');
    let kafka: KafkaMock;
    let db: TestDatabase;
    let gatewayUrl: string;

    const env = () => ({
      ...serviceEnv(),
      ...secrets,
      KAFKA_BROKERS: kafka.brokers.join(','),
      DATABASE_URL: db.url,
      DATA_DIR: dataDir.path,
    });

    const start = async (app: string, extra: Record<string, string> = {}) => {
      const run = startProcess({
        name: app,
        entry: `apps/${app}/src/main.ts`,
        env: { ...env(), ...extra },
      });
      const [, , port] = await run.waitForLine(READY, 120_000);
      return { run, port: Number(port) };
    };

    beforeAll(async () => {
      kafka = await startKafkaMock();
      db = await createTestDatabase();
    }, 180_000);

    afterAll(async () => {
      await killAllStarted();
      await db?.drop();
      await kafka?.stop();
      dataDir.remove();
    });

    /** Every message on the topic from its beginning, read by a fresh consumer group. */
    async function messagesOn(topic: string, waitMs: number): Promise<Array<{ id: string }>> {
      const client = new Kafka({ brokers: kafka.brokers, logLevel: logLevel.NOTHING });
      const consumer = client.consumer({
        groupId: `crash-check-${Date.now()}`,
        maxWaitTimeInMs: 20,
      });
      const seen: Array<{ id: string }> = [];
      await consumer.connect();
      try {
        await consumer.subscribe({ topic, fromBeginning: true });
        await consumer.run({
          eachMessage: async ({ message }) => {
            seen.push(JSON.parse(message.value!.toString('utf8')) as { id: string });
          },
        });
        await sleep(waitMs);
      } finally {
        await consumer.disconnect();
      }
      return seen;
    }

    it('publishes payment.succeeded exactly once after the restart, and credits once', async () => {
      const gateway = await start('gateway');
      gatewayUrl = `http://127.0.0.1:${gateway.port}`;
      await start('payouts');
      let payments: ManagedProcess = (
        await start('payments', { XAALIS_FAILPOINTS: 'payments.forwarder.before_publish=crash' })
      ).run;

      const http = new HttpClient(gatewayUrl);
      const merchant = await newTestMerchant(http);
      const created = await http.request('POST', '/v1/payments', {
        bearer: merchant.testKey,
        body: { amount: 20_000 },
      });
      expect(created.status).toBe(201);
      const id: string = created.body.id;

      // The append happens, then the process kills itself before publishing: the reply may or
      // may not make it out first, so only the crash is asserted here.
      const succeed = http.request('POST', `/v1/test_helpers/payments/${id}/succeed`, {
        bearer: merchant.testKey,
      });
      const exit = await payments.exited;
      expect(exit.signal).toBe('SIGKILL');
      await succeed;

      // Nothing was published and nothing credited while payments is down.
      const balanceDown = await http.request('GET', '/v1/balance', { bearer: merchant.testKey });
      expect(balanceDown.body).toMatchObject({ available: 0, pending: 0 });

      payments = (await start('payments')).run;
      const fee = 200; // the test helper's provider is `mock`: 100 bps of 20,000
      let balance = balanceDown;
      for (let i = 0; i < 100 && balance.body.available === 0; i += 1) {
        await sleep(100);
        balance = await http.request('GET', '/v1/balance', { bearer: merchant.testKey });
      }
      expect(balance.body).toMatchObject({ available: 20_000 - fee, pending: 0 });

      const got = await http.request('GET', `/v1/payments/${id}`, { bearer: merchant.testKey });
      expect(got.body).toMatchObject({
        status: 'succeeded',
        provider: 'mock',
        fee,
        net: 20_000 - fee,
      });

      // A clean restart does not publish it again: the checkpoint moved after the publish.
      await payments.stop();
      payments = (await start('payments')).run;
      await sleep(1_000);

      const published = (await messagesOn('events.payment.succeeded', 3_000)).filter(
        (event) => (event as { data?: { object?: { id?: string } } }).data?.object?.id === id,
      );
      expect(published).toHaveLength(1);
      // Spec 6: data.object is the payment exactly as GET /v1/payments/{id} shows it.
      expect((published[0] as unknown as { data: { object: unknown } }).data.object).toEqual(
        got.body,
      );
      expect(published[0]).toMatchObject({
        type: 'payment.succeeded',
        livemode: false,
        merchant_id: merchant.merchantId,
      });
      const again = await http.request('GET', '/v1/balance', { bearer: merchant.testKey });
      expect(again.body).toMatchObject({ available: 20_000 - fee, pending: 0 });
      await expectLedgerBalanced(db.pool);
    }, 240_000);
  });
});
