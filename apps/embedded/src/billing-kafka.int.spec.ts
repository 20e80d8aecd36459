import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { BillingModule } from '@xaalis/app-billing';
import { GatewayModule } from '@xaalis/app-gateway';
import { PaymentsModule } from '@xaalis/app-payments';
import { PayoutsModule } from '@xaalis/app-payouts';
import { WebhooksModule } from '@xaalis/app-webhooks';
import { BUS_CLIENT, loadConfig } from '@xaalis/config';
import type { AppName } from '@xaalis/contracts';
import { randomToken } from '@xaalis/kernel';
import { expectLedgerBalanced } from '@xaalis/ledger';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@xaalis/pg-testing';
import { bootApp, createInfrastructure, type Infrastructure } from '@xaalis/runtime';
import {
  describeWithKafka,
  describeWithPostgres,
  startKafkaMock,
  type KafkaMock,
} from '@xaalis/testing';

/**
 * CONTRACT 7 across processes: the gateway, payments, billing, payouts and webhooks as five apps
 * over Kafka (the kcat mock cluster), each with its own infrastructure as five processes have.
 * A subscription created from the dashboard opens its invoice, whose `invoice.created` reaches
 * the webhooks app; a test advance answers once its events are in `GET /v1/events` (billing asks
 * the webhooks app `webhooks.event.get` over Kafka); the hosted invoice page starts the invoice's
 * payment in the payments app, whose success pays the invoice (billing) and credits the balance
 * (payouts).
 */

const AMOUNT = 15_000;
/** The test helper's success is a mock payment: 1 % fee. */
const NET = AMOUNT - 150;

// Bodies are checked field by field; typing each would restate spec 2.3, 2.4 and 2.10.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

interface Answer {
  status: number;
  body: Json;
  headers: Headers;
}

/** fetch with JSON in and out, the bearer or the session cookie, and an idempotency key. */
function client(url: string) {
  let cookie: string | undefined;
  return async (
    method: string,
    path: string,
    options: {
      bearer?: string;
      body?: unknown;
      idempotencyKey?: string;
      idempotent?: boolean;
    } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = {};
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
    else if (cookie) headers.cookie = cookie;
    const key =
      options.idempotencyKey ??
      (options.idempotent ? `int-${randomBytes(12).toString('hex')}` : undefined);
    if (key) headers['idempotency-key'] = key;
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      redirect: 'manual',
    });
    const session = response.headers.getSetCookie().find((line) => line.includes('session_token='));
    if (session) cookie = session.split(';')[0];
    const text = await response.text();
    const json = (response.headers.get('content-type') ?? '').includes('json') && text !== '';
    return {
      status: response.status,
      body: json ? JSON.parse(text) : text,
      headers: response.headers,
    };
  };
}

/** Polls `probe` until `done` holds or 20 s pass; returns the last value for the assertion. */
async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const APPS: Array<[AppName, unknown]> = [
  ['gateway', GatewayModule],
  ['payments', PaymentsModule],
  ['billing', BillingModule],
  ['payouts', PayoutsModule],
  ['webhooks', WebhooksModule],
];

describeWithPostgres('subscriptions, distributed', () => {
  describeWithKafka(
    'gateway, payments, billing, payouts and webhooks as five apps over Kafka',
    () => {
      let kafka: KafkaMock;
      let db: ThrowawayDatabase;
      const infras: Infrastructure[] = [];
      const apps: INestApplication[] = [];
      let url: string;

      beforeAll(async () => {
        kafka = await startKafkaMock();
        db = await createThrowawayDatabase({ prefix: 'int_billing_kafka', poolMax: 2 });
        const config = loadConfig({
          PORT: '0',
          LOG_LEVEL: 'error',
          SECRET_HASH_KEY: randomToken(48),
          AUTH_SECRET: randomToken(48),
          IP_RATE_LIMIT_BURST: '10000',
          IP_RATE_LIMIT_PER_SECOND: '10000',
          RATE_LIMIT_BURST: '10000',
          RATE_LIMIT_PER_SECOND: '10000',
          DATABASE_URL: db.url,
          KAFKA_BROKERS: kafka.brokers.join(','),
        });
        const bus = { kafkaBrokers: kafka.brokers, kafkaMaxWaitMs: 20 };
        for (const [name] of APPS)
          infras.push(await createInfrastructure(config, { applicationName: `int-${name}` }));
        // A consumer group's first join takes 3 s on the mock cluster: join all five at once.
        apps.push(
          ...(await Promise.all(
            APPS.map(([app, module], n) =>
              bootApp({
                app,
                module: module as never,
                infra: infras[n]!,
                bus,
                logger: false,
                ...(app === 'gateway' ? { port: 0, host: '127.0.0.1' } : {}),
              }),
            ),
          )),
        );
        url = (await apps[0]!.getUrl()).replace('[::1]', '127.0.0.1');
        // The hosted invoice link is on the gateway's origin, whose port is known only now.
        for (const infra of infras) infra.config.publicBaseUrl = url;
      });

      afterAll(async () => {
        try {
          if (infras[3]) await expectLedgerBalanced(infras[3].pool);
        } finally {
          for (const app of apps) await app.close();
          for (const infra of infras) await infra.close();
          await db?.drop();
          await kafka?.stop();
        }
      });

      it('the gateway and billing ask over Kafka: no in-process route between apps', () => {
        expect(apps[0]!.get(BUS_CLIENT)).toBeInstanceOf(ClientKafka);
        expect(apps[2]!.get(BUS_CLIENT)).toBeInstanceOf(ClientKafka);
      });

      it('created from the dashboard, advanced, paid on its hosted page: the invoice paid and the balance credited', async () => {
        const call = client(url);
        const signUp = await call('POST', '/dashboard/v1/auth/sign-up', {
          body: {
            email: `billing-${randomToken(8)}@int.xaalis.test`,
            password: randomToken(16),
            name: 'Billing Owner',
          },
        });
        expect(signUp.status).toBe(201);
        const merchant = await call('POST', '/dashboard/v1/merchants', {
          body: { name: 'Fibre Kafka' },
        });
        expect(merchant.status).toBe(201);
        const merchantId: string = merchant.body.id;
        const apiKey = await call('POST', `/dashboard/v1/merchants/${merchantId}/test/api-keys`, {
          idempotent: true,
        });
        expect(apiKey.status).toBe(201);
        const key: string = apiKey.body.secret_key;
        const events = async (type: string) =>
          (await call('GET', `/v1/events?type=${type}&limit=100`, { bearer: key })).body
            .data as Json[];
        const getInvoice = async (id: string) =>
          (await call('GET', `/v1/invoices/${id}`, { bearer: key })).body;

        const created = await call(
          'POST',
          `/dashboard/v1/merchants/${merchantId}/test/subscriptions`,
          {
            idempotent: true,
            body: {
              customer: { phone: '+221771234567', name: 'Awa Diop' },
              amount: AMOUNT,
              interval: 'month',
            },
          },
        );
        expect({ status: created.status, body: created.body }).toMatchObject({
          status: 201,
          body: {
            object: 'subscription',
            livemode: false,
            status: 'active',
            latest_invoice: { status: 'open', amount: AMOUNT, payment: null },
          },
        });
        const subscriptionId: string = created.body.id;
        const invoice = created.body.latest_invoice;
        expect(invoice.hosted_invoice_url).toBe(`${url}/invoices/${invoice.id}/pay`);

        // Billing's forwarder → Kafka → the webhooks app's events.
        const opened = await eventually(
          () => events('invoice.created'),
          (seen) => seen.length > 0,
        );
        expect(opened.map((event) => event.data.object.id)).toEqual([invoice.id]);

        // The reminder a day before due_at (no webhook event), then due_at: overdue and past_due,
        // in GET /v1/events by the time the advance answers.
        const advance = (idempotencyKey: string) =>
          call('POST', `/v1/subscriptions/${subscriptionId}/test_advance`, {
            bearer: key,
            idempotencyKey,
          });
        const reminded = await advance('advance-1');
        expect(reminded.status).toBe(200);
        expect(reminded.body.latest_invoice).toMatchObject({ reminders_sent: 1, status: 'open' });
        const pastDue = await advance('advance-2');
        expect({ status: pastDue.status, body: pastDue.body }).toMatchObject({
          status: 200,
          body: { status: 'past_due', latest_invoice: { reminders_sent: 2, status: 'open' } },
        });
        expect((await events('invoice.overdue')).map((event) => event.data.object.id)).toEqual([
          invoice.id,
        ]);
        expect((await events('subscription.past_due')).map((event) => event.data.object)).toEqual([
          expect.objectContaining({ id: subscriptionId, status: 'past_due' }),
        ]);
        // The same key advances nothing more.
        const again = await advance('advance-2');
        expect(again.body.latest_invoice.reminders_sent).toBe(2);

        // "Payer" on the hosted page: billing starts the invoice's payment in the payments app.
        const pay = await call('POST', `/invoices/${invoice.id}/pay`);
        expect(pay.status).toBe(303);
        const location = pay.headers.get('location') ?? '';
        const paymentId = /\/checkout\/(pay_[0-9A-Za-z]+)/.exec(location)?.[1];
        expect({ location, paymentId }).toEqual({ location, paymentId: expect.any(String) });
        expect(await getInvoice(invoice.id)).toMatchObject({ status: 'open', payment: paymentId });
        const payment = await call('GET', `/v1/payments/${paymentId}`, { bearer: key });
        expect(payment.body).toMatchObject({ amount: AMOUNT, status: 'requires_payment_method' });

        const succeeded = await call('POST', `/v1/test_helpers/payments/${paymentId}/succeed`, {
          bearer: key,
        });
        expect({ status: succeeded.status, payment: succeeded.body.status }).toEqual({
          status: 200,
          payment: 'succeeded',
        });

        // payment.succeeded → billing (invoice paid, subscription active again) and payouts (ledger).
        const paid = await eventually(
          () => getInvoice(invoice.id),
          (seen) => seen.status === 'paid',
        );
        expect(paid).toEqual({
          ...invoice,
          status: 'paid',
          payment: paymentId,
          paid_at: expect.any(String),
          reminders_sent: 2,
        });
        const subscription = await call('GET', `/v1/subscriptions/${subscriptionId}`, {
          bearer: key,
        });
        expect(subscription.body).toMatchObject({ status: 'active', cycles_paid: 1 });
        const balance = await eventually(
          async () => (await call('GET', '/v1/balance', { bearer: key })).body,
          (seen) => seen.available === NET,
        );
        expect(balance).toMatchObject({ available: NET, pending: 0 });
        const invoicePaid = await eventually(
          () => events('invoice.paid'),
          (seen) => seen.length > 0,
        );
        expect(invoicePaid.map((event) => event.data.object)).toEqual([
          expect.objectContaining({ id: invoice.id, status: 'paid', payment: paymentId }),
        ]);
      });
    },
  );
});
