import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { GatewayModule } from '@xaalis/app-gateway';
import { PaymentsModule } from '@xaalis/app-payments';
import { PayoutsModule } from '@xaalis/app-payouts';
import { BUS_CLIENT, loadConfig } from '@xaalis/config';
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
 * Issue 19, item 7: agent wallets, agent keys and payouts when the gateway, payments and payouts
 * are three apps over Kafka (the kcat mock cluster), each with its own infrastructure as three
 * processes have. A payment's success funds the balance (payments → payouts' ledger over Kafka);
 * the wallet, its key and the agent's payout go through the gateway's HTTP; the sandbox ends the
 * payout on the payouts app's own clock.
 */

// Long enough for the reads between acceptance and the end to see the payout in flight.
const SETTLE_MS = 1_000;

// Bodies are checked field by field; typing each would restate spec 2.5 and 2.6.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** fetch with JSON in and out, the bearer or the session cookie, and a fresh idempotency key. */
function client(url: string) {
  let cookie: string | undefined;
  return async (
    method: string,
    path: string,
    options: { bearer?: string; body?: unknown; idempotent?: boolean } = {},
  ): Promise<{ status: number; body: Json }> => {
    const headers: Record<string, string> = {};
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
    else if (cookie) headers.cookie = cookie;
    if (options.idempotent) headers['idempotency-key'] = `int-${randomBytes(12).toString('hex')}`;
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const session = response.headers.getSetCookie().find((line) => line.includes('session_token='));
    if (session) cookie = session.split(';')[0];
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  };
}

/** Polls `probe` until `done` holds or 15 s pass; returns the last value for the assertion. */
async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeWithPostgres('agent payouts, distributed', () => {
  describeWithKafka('gateway, payments and payouts as three apps over Kafka', () => {
    let kafka: KafkaMock;
    let db: ThrowawayDatabase;
    const infras: Infrastructure[] = [];
    const apps: INestApplication[] = [];
    let url: string;

    beforeAll(async () => {
      kafka = await startKafkaMock();
      db = await createThrowawayDatabase({ prefix: 'int_payouts_kafka', poolMax: 2 });
      const config = loadConfig({
        PORT: '0',
        LOG_LEVEL: 'error',
        SECRET_HASH_KEY: randomToken(48),
        AUTH_SECRET: randomToken(48),
        IP_RATE_LIMIT_BURST: '10000',
        IP_RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
        RATE_LIMIT_PER_SECOND: '10000',
        SANDBOX_SETTLE_MS: String(SETTLE_MS),
        DATABASE_URL: db.url,
        KAFKA_BROKERS: kafka.brokers.join(','),
      });
      const bus = { kafkaBrokers: kafka.brokers, kafkaMaxWaitMs: 20 };
      for (const name of ['gateway', 'payments', 'payouts'])
        infras.push(await createInfrastructure(config, { applicationName: `int-${name}` }));
      // A consumer group's first join takes 3 s on the mock cluster: join all three at once.
      apps.push(
        ...(await Promise.all([
          bootApp({
            app: 'gateway',
            module: GatewayModule,
            infra: infras[0]!,
            bus,
            port: 0,
            host: '127.0.0.1',
            logger: false,
          }),
          bootApp({
            app: 'payments',
            module: PaymentsModule,
            infra: infras[1]!,
            bus,
            logger: false,
          }),
          bootApp({ app: 'payouts', module: PayoutsModule, infra: infras[2]!, bus, logger: false }),
        ])),
      );
      url = (await apps[0]!.getUrl()).replace('[::1]', '127.0.0.1');
    });

    afterAll(async () => {
      try {
        if (infras[2]) await expectLedgerBalanced(infras[2].pool);
      } finally {
        for (const app of apps) await app.close();
        for (const infra of infras) await infra.close();
        await db?.drop();
        await kafka?.stop();
      }
    });

    it('the gateway asks over Kafka: no in-process route to payments or payouts', () => {
      expect(apps[0]!.get(BUS_CLIENT)).toBeInstanceOf(ClientKafka);
    });

    it('a funded merchant: wallet, agent key and agent payout over HTTP; the sandbox pays it out', async () => {
      const call = client(url);
      const user = {
        email: `payouts-${randomToken(8)}@int.xaalis.test`,
        password: randomToken(16),
      };
      const signUp = await call('POST', '/dashboard/v1/auth/sign-up', {
        body: { ...user, name: 'Payouts Owner' },
      });
      expect(signUp.status).toBe(201);
      const merchant = await call('POST', '/dashboard/v1/merchants', {
        body: { name: 'Kafka Shop' },
      });
      expect(merchant.status).toBe(201);
      const apiKey = await call(
        'POST',
        `/dashboard/v1/merchants/${merchant.body.id}/test/api-keys`,
        {
          idempotent: true,
        },
      );
      expect(apiKey.status).toBe(201);
      const key: string = apiKey.body.secret_key;
      const balance = async () => (await call('GET', '/v1/balance', { bearer: key })).body;

      // Funded by the payments app: payment.succeeded reaches the payouts app's ledger over Kafka.
      const payment = await call('POST', '/v1/payments', {
        bearer: key,
        idempotent: true,
        body: { amount: 50_000 },
      });
      expect(payment.status).toBe(201);
      const paid = await call('POST', `/v1/test_helpers/payments/${payment.body.id}/succeed`, {
        bearer: key,
      });
      expect(paid.body.status).toBe('succeeded');
      const funded = await eventually(balance, (seen) => seen.available === 49_500);
      expect(funded).toMatchObject({ available: 49_500, pending: 0 });

      const wallet = await call('POST', '/v1/agent-wallets', {
        bearer: key,
        idempotent: true,
        body: {
          name: 'Kafka agent',
          provider: 'orange_money',
          max_payout_amount: 10_000,
          max_daily_amount: 20_000,
          allowed_recipient_phones: ['+221771234567'],
        },
      });
      expect(wallet.body).toMatchObject({
        object: 'agent_wallet',
        status: 'active',
        policy_version: 1,
      });
      const agentKey = await call('POST', `/v1/agent-wallets/${wallet.body.id}/keys`, {
        bearer: key,
        idempotent: true,
      });
      expect(agentKey.body.secret_key).toMatch(/^ak_test_/);
      const agent: string = agentKey.body.secret_key;

      const payout = await call('POST', '/v1/agent/payouts', {
        bearer: agent,
        idempotent: true,
        body: { amount: 7_777, recipient: { phone: '+221771234567' }, action_id: 'kafka-1' },
      });
      expect({ status: payout.status, body: payout.body }).toMatchObject({
        status: 201,
        body: { status: 'pending', amount: 7_777, fee: 78, provider: 'orange_money' },
      });
      expect(await balance()).toMatchObject({ available: 49_500 - 7_855, pending: 7_855 });
      const spending = await call('GET', '/v1/agent/wallet', { bearer: agent });
      expect(spending.body).toMatchObject({ spent_today: 7_777, remaining_today: 20_000 - 7_777 });

      const ended = await eventually(
        async () => (await call('GET', `/v1/payouts/${payout.body.id}`, { bearer: key })).body,
        (seen) => seen.status === 'succeeded',
      );
      expect(ended).toEqual({
        ...payout.body,
        status: 'succeeded',
        updated_at: expect.any(String),
      });
      expect(await balance()).toMatchObject({ available: 49_500 - 7_855, pending: 0 });
      const listed = await call('GET', `/v1/agent-wallets/${wallet.body.id}/payouts`, {
        bearer: key,
      });
      expect(listed.body).toEqual({ object: 'list', data: [ended], has_more: false });
    });
  });
});
