import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { BillingModule } from '@xaalis/app-billing';
import { ExchangeModule } from '@xaalis/app-exchange';
import { GatewayModule } from '@xaalis/app-gateway';
import { PaymentsModule } from '@xaalis/app-payments';
import { PayoutsModule } from '@xaalis/app-payouts';
import { WebhooksModule } from '@xaalis/app-webhooks';
import { loadConfig } from '@xaalis/config';
import type { AppName } from '@xaalis/contracts';
import { randomToken } from '@xaalis/kernel';
import { expectLedgerBalanced } from '@xaalis/ledger';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@xaalis/pg-testing';
import { bootApp, createInfrastructure, type Infrastructure } from '@xaalis/runtime';
import { startKafkaMock, type KafkaMock } from '@xaalis/testing';

const MODULES: Record<AppName, unknown> = {
  gateway: GatewayModule,
  payments: PaymentsModule,
  billing: BillingModule,
  payouts: PayoutsModule,
  webhooks: WebhooksModule,
  exchange: ExchangeModule,
};

export interface AppsOverKafka {
  /** The gateway's base URL. */
  url: string;
  app(name: AppName): INestApplication;
  /** Checks the payouts app's ledger balances (when it runs), then stops everything. */
  close(): Promise<void>;
}

/**
 * Some of the six apps as separate processes would run them: each with its own infrastructure
 * (pool, event store client, config) on one throwaway database, over Kafka (the kcat mock
 * cluster, consumers polling every 20 ms). The gateway listens on a free port of 127.0.0.1 and
 * every app's public base URL is set to it, as a deployment's PUBLIC_BASE_URL would be.
 */
export async function startAppsOverKafka(options: {
  apps: AppName[];
  /** Names the throwaway database. */
  prefix: string;
  env?: Record<string, string>;
}): Promise<AppsOverKafka> {
  const kafka: KafkaMock = await startKafkaMock();
  const db: ThrowawayDatabase = await createThrowawayDatabase({
    prefix: options.prefix,
    poolMax: 2,
  });
  const infras: Infrastructure[] = [];
  const apps: INestApplication[] = [];
  const close = async () => {
    try {
      const payouts = options.apps.indexOf('payouts');
      if (payouts >= 0 && infras[payouts]) await expectLedgerBalanced(infras[payouts].pool);
    } finally {
      for (const app of apps) await app.close();
      for (const infra of infras) await infra.close();
      await db.drop();
      await kafka.stop();
    }
  };
  try {
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
      ...options.env,
    });
    const bus = { kafkaBrokers: kafka.brokers, kafkaMaxWaitMs: 20 };
    for (const name of options.apps) {
      infras.push(await createInfrastructure(config, { applicationName: `int-${name}` }));
    }
    // A consumer group's first join takes 3 s on the mock cluster: all apps join at once.
    apps.push(
      ...(await Promise.all(
        options.apps.map((app, n) =>
          bootApp({
            app,
            module: MODULES[app] as never,
            infra: infras[n]!,
            bus,
            logger: false,
            ...(app === 'gateway' ? { port: 0, host: '127.0.0.1' } : {}),
          }),
        ),
      )),
    );
    const gateway = apps[options.apps.indexOf('gateway')]!;
    const url = (await gateway.getUrl()).replace('[::1]', '127.0.0.1');
    for (const infra of infras) infra.config.publicBaseUrl = url;
    return { url, app: (name) => apps[options.apps.indexOf(name)]!, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

// Bodies are checked field by field by the tests; typing each would restate the spec.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Answer {
  status: number;
  body: Json;
  headers: Headers;
}

/** Times a keyed request answered 503 is sent again by `jsonClient`. */
const UNAVAILABLE_RETRIES = 3;

/**
 * fetch with JSON in and out, as one browser: the session cookie a response sets is sent back
 * unless a bearer key is given; `idempotent` sends a fresh idempotency key. Redirects are
 * answered, not followed. A keyed request answered 503 (an app behind the gateway did not answer
 * in time: on a busy machine the mock cluster's hops take hundreds of milliseconds each) is sent
 * again with the same key after its Retry-After, as a client told 503 must, a few times at most.
 */
export function jsonClient(url: string) {
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
    const send = () =>
      fetch(`${url}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        redirect: 'manual',
      });
    let response = await send();
    for (
      let retries = 0;
      key && response.status === 503 && retries < UNAVAILABLE_RETRIES;
      retries++
    ) {
      const seconds = Number(response.headers.get('retry-after') ?? 1);
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      response = await send();
    }
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
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
