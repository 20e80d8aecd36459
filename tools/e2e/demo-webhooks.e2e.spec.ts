import Stripe from 'stripe';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import {
  answer,
  createTestCertificates,
  startHttpsReceiver,
  type HttpsReceiver,
  type TestCertificates,
} from '@xaalis/webhook-sender';
import { verifyWebhook } from '@xaalis/webhook-signature';
import { serviceEnv, tempDataDir } from './support/fixtures';
import { HttpClient } from './support/http';
import { eventually } from './support/payments';
import { killAllStarted, startProcess } from './support/processes';

const RUNNING = /^Xaalis is running at (http:\/\/localhost:\d+) /;
const DEMO_KEY = /^Test secret key \(shown once\): (sk_test_\w+)$/;
const DEMO_WEBHOOK_SECRET = /^Webhook secret \(shown once\): (whsec_\S+)$/;

/**
 * Issue 17, item 4: the first start prints the demo merchant's webhook secret beside its key, and
 * the README's way of receiving the demo's webhooks works as written: an HTTPS receiver on this
 * machine, its host allowed by WEBHOOK_ALLOWED_HOSTS and its CA trusted by NODE_EXTRA_CA_CERTS;
 * the printed secret verifies the delivery, with our helper and with Stripe's SDK.
 */
describeWithPostgres('the demo merchant’s webhooks (npm start)', () => {
  const dataDir = tempDataDir('demo-webhooks');
  let db: TestDatabase;
  let certs: TestCertificates;
  let receiver: HttpsReceiver;

  beforeAll(async () => {
    db = await createTestDatabase();
    certs = createTestCertificates();
    receiver = await startHttpsReceiver({
      cert: certs.cert,
      key: certs.key,
      behaviour: answer(200),
    });
  });

  afterAll(async () => {
    await killAllStarted();
    await receiver?.close();
    certs?.remove();
    await db?.drop();
    dataDir.remove();
  });

  it('prints a webhook secret that verifies the demo’s deliveries, with Stripe’s SDK too', async () => {
    const run = startProcess({
      name: 'embedded (demo webhooks)',
      entry: 'apps/embedded/src/main.ts',
      env: {
        ...serviceEnv(),
        DATA_DIR: dataDir.path,
        DATABASE_URL: db.url,
        WEBHOOK_ALLOWED_HOSTS: 'localhost',
        NODE_EXTRA_CA_CERTS: certs.caPath,
      },
    });
    const [, url] = await run.waitForLine(RUNNING, 120_000);
    const [, key] = await run.waitForLine(DEMO_KEY, 10_000);
    const [, secret] = await run.waitForLine(DEMO_WEBHOOK_SECRET, 10_000);
    const http = new HttpClient(url!);

    const patched = await http.patch('/v1/account', {
      bearer: key,
      body: { webhook_url: receiver.url('/xaalis/webhooks') },
    });
    expect(patched.status).toBe(200);
    const created = await http.post('/v1/payments', {
      bearer: key,
      idempotencyKey: 'demo-webhooks-1',
      body: { amount: 2_500 },
    });
    const succeeded = await http.post(`/v1/test_helpers/payments/${created.body.id}/succeed`, {
      bearer: key,
    });
    expect(succeeded.status).toBe(200);

    const delivery = await eventually(
      async () => receiver.requests.find((request) => request.path === '/xaalis/webhooks'),
      (found) => found !== undefined,
    );
    if (delivery === undefined) throw new Error('the receiver got no delivery');
    const header = String(delivery.headers['xaalis-signature']);
    const ours = verifyWebhook<{ type: string; data: { object: { id: string } } }>({
      rawBody: delivery.rawBody,
      header,
      secret: secret!,
    });
    expect(ours).toMatchObject({
      type: 'payment.succeeded',
      data: { object: { id: created.body.id } },
    });
    const stripes = new Stripe('sk_test_unused').webhooks.constructEvent(
      delivery.rawBody,
      header,
      secret!,
    );
    expect(stripes).toMatchObject({ id: ours.id, type: 'payment.succeeded' });
    expect(() =>
      new Stripe('sk_test_unused').webhooks.constructEvent(delivery.rawBody, header, `${secret}x`),
    ).toThrow();
    await run.stop();
  }, 180_000);
});
