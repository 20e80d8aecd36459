import type { INestApplication } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { GatewayModule } from '@xaalis/app-gateway';
import { PayoutsModule } from '@xaalis/app-payouts';
import { BUS_CLIENT, loadConfig, type XaalisConfig } from '@xaalis/config';
import { announceApiKeyChanged, type PrismaClient } from '@xaalis/database';
import { hashSecret, newId, randomToken, type Mode } from '@xaalis/kernel';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@xaalis/pg-testing';
import { bootApp, createInfrastructure, type Infrastructure } from '@xaalis/runtime';
import {
  describeWithKafka,
  describeWithPostgres,
  startKafkaMock,
  type KafkaMock,
} from '@xaalis/testing';
import { startEmbeddedService, type EmbeddedService } from './embedded-service';

/**
 * Issue 18, item 11: the gateway's bearer guard finds agent keys (`ak_…`) in the payouts app's
 * `agent_keys` read model through `payouts.agent_key.find`, in one process (in-process bus) and
 * across processes (Kafka). Nothing issues agent keys yet, so the tests write the row the
 * agent-wallet projection will write. An agent key may call only /v1/agent/..., of which no route
 * exists yet: a known key is told 403 on /v1/account, an unknown or revoked one 401.
 */

/** Far below the key cache's 5 s TTL: only the change's NOTIFY can refuse a cached key this soon. */
const AT_ONCE_MS = 1_000;

function testConfig(db: ThrowawayDatabase, env: Record<string, string> = {}): XaalisConfig {
  return loadConfig({
    PORT: '0',
    LOG_LEVEL: 'error',
    SECRET_HASH_KEY: randomToken(48),
    AUTH_SECRET: randomToken(48),
    IP_RATE_LIMIT_BURST: '10000',
    IP_RATE_LIMIT_PER_SECOND: '10000',
    RATE_LIMIT_BURST: '10000',
    RATE_LIMIT_PER_SECOND: '10000',
    DATABASE_URL: db.url,
    ...env,
  });
}

/** The row the agent-wallet projection will write for an issued key; returns its secret. */
async function insertAgentKey(
  prisma: PrismaClient,
  hashKey: string,
  mode: Mode = 'test',
): Promise<{ id: string; secret: string }> {
  const secret = `ak_${mode}_${randomToken(32)}`;
  const id = newId('agentKey');
  await prisma.agentKey.create({
    data: {
      id,
      merchantId: newId('merchant'),
      mode,
      agentWalletId: newId('agentWallet'),
      secretHash: hashSecret(secret, hashKey),
      createdAt: new Date(),
    },
  });
  return { id, secret };
}

/** What the agent-wallet projection's revoke will do: the row and its NOTIFY, in one transaction. */
async function revokeAgentKey(prisma: PrismaClient, id: string): Promise<void> {
  await prisma.$transaction(async (tx) => {
    await tx.agentKey.update({ where: { id }, data: { revokedAt: new Date() } });
    await announceApiKeyChanged(tx, id);
  });
}

async function getAccount(url: string, bearer: string): Promise<{ status: number; code?: string }> {
  const response = await fetch(`${url}/v1/account`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  const body = (await response.json()) as { error?: { code?: string } };
  return { status: response.status, code: body.error?.code };
}

const AUTHENTICATED = { status: 403, code: 'forbidden' };
const REFUSED = { status: 401, code: 'authentication_required' };

/** How long after `since` the gateway first refuses the secret (polled; fails past the TTL). */
async function refusedAfter(url: string, secret: string, since: number): Promise<number> {
  while (Date.now() - since < 6_000) {
    const answer = await getAccount(url, secret);
    if (answer.status === 401) return Date.now() - since;
    expect(answer).toEqual(AUTHENTICATED);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('The revoked agent key was never refused');
}

/** The same behaviour whatever carries the request: run by both suites below. */
function agentKeyCases(system: () => { url: string; prisma: PrismaClient; hashKey: string }): void {
  it('authenticates a known agent key, from the payouts app’s read model', async () => {
    const { url, prisma, hashKey } = system();
    const key = await insertAgentKey(prisma, hashKey);

    expect(await getAccount(url, key.secret)).toEqual(AUTHENTICATED);
    // Its use is recorded like an API key's: the guard got as far as the key's id.
    const usage = await prisma.$queryRaw<Array<{ key_id: string }>>`
      SELECT key_id FROM api_key_usage WHERE key_id = ${key.id}`;
    expect(usage).toEqual([{ key_id: key.id }]);
  });

  it('refuses an unknown agent key, a key of the other mode and a malformed one with the same 401', async () => {
    const { url, prisma, hashKey } = system();
    const key = await insertAgentKey(prisma, hashKey);

    expect(await getAccount(url, `ak_test_${randomToken(32)}`)).toEqual(REFUSED);
    expect(await getAccount(url, key.secret.replace('ak_test_', 'ak_live_'))).toEqual(REFUSED);
    const malformed = [
      'ak_test_short',
      `ak_sandbox_${randomToken(32)}`,
      `ak_test_${'-'.repeat(32)}`,
    ];
    for (const secret of malformed) expect(await getAccount(url, secret)).toEqual(REFUSED);
  });

  it('refuses a revoked agent key at once, though the gateway had it cached', async () => {
    const { url, prisma, hashKey } = system();
    const key = await insertAgentKey(prisma, hashKey);
    expect(await getAccount(url, key.secret)).toEqual(AUTHENTICATED);
    expect(await getAccount(url, key.secret)).toEqual(AUTHENTICATED);

    const since = Date.now();
    await revokeAgentKey(prisma, key.id);

    expect(await refusedAfter(url, key.secret, since)).toBeLessThan(AT_ONCE_MS);
    expect(await getAccount(url, key.secret)).toEqual(REFUSED);
  });
}

describeWithPostgres('agent keys, embedded (in-process bus)', () => {
  let db: ThrowawayDatabase;
  let service: EmbeddedService;

  beforeAll(async () => {
    db = await createThrowawayDatabase({ prefix: 'int_agent_keys', poolMax: 2 });
    service = await startEmbeddedService(testConfig(db), { host: '127.0.0.1', openApi: false });
  });

  afterAll(async () => {
    await service?.close();
    await db?.drop();
  });

  agentKeyCases(() => ({
    url: service.url,
    prisma: service.infra.prisma,
    hashKey: service.infra.config.secretHashKey!,
  }));
});

describeWithPostgres('agent keys, distributed', () => {
  describeWithKafka('gateway and payouts as two apps over the Kafka-protocol mock broker', () => {
    let kafka: KafkaMock;
    let db: ThrowawayDatabase;
    const infras: Infrastructure[] = [];
    let gateway: INestApplication;
    let payouts: INestApplication | undefined;
    let url: string;

    beforeAll(async () => {
      kafka = await startKafkaMock();
      db = await createThrowawayDatabase({ prefix: 'int_agent_keys_kafka', poolMax: 2 });
      const config = testConfig(db, { KAFKA_BROKERS: kafka.brokers.join(',') });
      const bus = { kafkaBrokers: kafka.brokers, kafkaMaxWaitMs: 20 };
      // One infrastructure each, as two processes have: their own pools and key caches.
      for (const name of ['gateway', 'payouts'])
        infras.push(await createInfrastructure(config, { applicationName: `int-${name}` }));
      // A consumer group's first join takes 3 s on the mock cluster: join both at once.
      [gateway, payouts] = await Promise.all([
        bootApp({
          app: 'gateway',
          module: GatewayModule,
          infra: infras[0]!,
          bus,
          port: 0,
          host: '127.0.0.1',
          logger: false,
        }),
        bootApp({ app: 'payouts', module: PayoutsModule, infra: infras[1]!, bus, logger: false }),
      ]);
      url = (await gateway.getUrl()).replace('[::1]', '127.0.0.1');
    });

    afterAll(async () => {
      await gateway?.close();
      await payouts?.close();
      for (const infra of infras) await infra.close();
      await db?.drop();
      await kafka?.stop();
    });

    it('asks over Kafka: the gateway holds no in-process route to payouts', () => {
      expect(gateway.get(BUS_CLIENT)).toBeInstanceOf(ClientKafka);
    });

    agentKeyCases(() => ({
      url,
      prisma: infras[1]!.prisma,
      hashKey: infras[1]!.config.secretHashKey!,
    }));

    it('answers 503, not 401, while the payouts app does not answer', async () => {
      await payouts?.close();
      payouts = undefined;

      const answer = await getAccount(url, `ak_test_${randomToken(32)}`);

      expect(answer).toEqual({ status: 503, code: 'unavailable' });
    });
  });
});
