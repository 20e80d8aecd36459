import { Global, type LoggerService, Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  BUS_CLIENT,
  CLOCK,
  CONFIG,
  EVENT_STORE,
  loadConfig,
  PG_POOL,
  PRISMA,
  type XaalisConfig,
} from '@xaalis/config';
import {
  PAYOUTS_AGENT_KEY_FIND,
  WEBHOOKS_ENDPOINT_SET_DEFAULT,
  type SetDefaultWebhookEndpointRequest,
  type WebhookEndpointReply,
} from '@xaalis/contracts';
import { createPrismaClient, type PrismaClient } from '@xaalis/database';
import { PostgresEventStore } from '@xaalis/event-store';
import { configureHttpApp, createFastifyAdapter, setupOpenApi } from '@xaalis/http';
import { FixedClock, randomToken } from '@xaalis/kernel';
import { createTestDatabase, type TestDatabase } from '@xaalis/testing';
import { of } from 'rxjs';
import { GatewayModule } from '../gateway.module';

/** Every line any logger wrote, to check that no secret ever reaches the logs. */
export class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  private write =
    (level: string) =>
    (message: unknown, ...rest: unknown[]) => {
      this.lines.push(
        [level, message, ...rest]
          .map((part) => (typeof part === 'string' ? part : JSON.stringify(part)))
          .join(' '),
      );
    };
  log = this.write('log');
  error = this.write('error');
  warn = this.write('warn');
  debug = this.write('debug');
  verbose = this.write('verbose');
  fatal = this.write('fatal');
}

/**
 * What the other apps answer while they are not running: `payouts.balance.get` a fresh ledger,
 * `payouts.agent_key.find` no key, `webhooks.endpoint.set_default` the endpoint it was asked for.
 */
export const zeroBalanceBus = {
  requests: [] as Array<{ pattern: string; data: unknown }>,
  connect: async () => undefined,
  close: async () => undefined,
  emit: () => of(undefined),
  send(pattern: string, data: unknown) {
    this.requests.push({ pattern, data });
    if (pattern === WEBHOOKS_ENDPOINT_SET_DEFAULT)
      return of({ ok: true, value: defaultEndpointOf(data as SetDefaultWebhookEndpointRequest) });
    if (pattern === PAYOUTS_AGENT_KEY_FIND) return of({ ok: true, value: { key: null } });
    return of({ ok: true, value: { available: 0, pending: 0 } });
  },
};

/**
 * A reply envelope for a test that stands in for another app on the harness's bus (in a
 * `jest.spyOn(zeroBalanceBus, 'send')`): the bus types its replies by what it answers itself.
 */
export const busAnswer = (envelope: object) =>
  of(envelope) as unknown as ReturnType<typeof zeroBalanceBus.send>;

function defaultEndpointOf(request: SetDefaultWebhookEndpointRequest): WebhookEndpointReply {
  return {
    object: 'webhook_endpoint',
    id: 'we_01JD0000000000000000000000',
    merchant_id: request.merchant_id,
    mode: request.mode,
    is_default: true,
    managed_by: 'account',
    url: request.url,
    event_types: ['*'],
    payload_policy: 'full',
    active: true,
    created_at: request.at,
  };
}

export interface Gateway {
  url: string;
  app: NestFastifyApplication;
  db: TestDatabase;
  prisma: PrismaClient;
  clock: FixedClock;
  config: XaalisConfig;
  logs: CapturingLogger;
  close(): Promise<void>;
}

/**
 * The GatewayModule on Fastify, listening on a random port, over a throwaway database with every
 * migration, the Postgres event store, a clock the test moves, and a fake bus. The global core
 * module stands in for the composition root's.
 */
export async function startGateway(env: Record<string, string> = {}): Promise<Gateway> {
  const db = await createTestDatabase();
  const prisma = createPrismaClient(db.pool);
  const store = new PostgresEventStore(db.pool);
  const clock = new FixedClock(new Date());
  const config = loadConfig({
    SECRET_HASH_KEY: randomToken(48),
    AUTH_SECRET: randomToken(48),
    PUBLIC_BASE_URL: 'http://127.0.0.1',
    WEBHOOK_ALLOWED_HOSTS: 'hooks.test',
    IP_RATE_LIMIT_BURST: '1000',
    ...env,
  });

  @Global()
  @Module({})
  class TestCoreModule {
    static create(): DynamicModule {
      const providers = [
        { provide: CONFIG, useValue: config },
        { provide: CLOCK, useValue: clock },
        { provide: PG_POOL, useValue: db.pool },
        { provide: PRISMA, useValue: prisma },
        { provide: EVENT_STORE, useValue: store },
        { provide: BUS_CLIENT, useValue: zeroBalanceBus },
      ];
      return {
        module: TestCoreModule,
        providers,
        exports: providers.map((provider) => provider.provide),
      };
    }
  }

  @Module({ imports: [TestCoreModule.create(), GatewayModule] })
  class TestRootModule {}

  const logs = new CapturingLogger();
  const app = await NestFactory.create<NestFastifyApplication>(
    TestRootModule,
    createFastifyAdapter(),
    { logger: logs },
  );
  configureHttpApp(app);
  setupOpenApi(app, { ui: false });
  await app.listen(0, '127.0.0.1');
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return {
    url,
    app,
    db,
    prisma,
    clock,
    config,
    logs,
    async close() {
      await app.close();
      await store.close();
      await prisma.$disconnect();
      await db.drop();
    },
  };
}
