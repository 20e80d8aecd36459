import { createPrismaClient, type PrismaClient } from '@xaalis/database';
import type { RecordedEvent } from '@xaalis/event-store';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import { MERCHANT_ID, T0 } from '@xaalis/identity-domain/testing';
import { merchantProjection } from '../read-model/merchant.projection';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeyChangeListener } from './api-key-change.listener';
import { cachedKey as key } from './cached-key.fixtures';

const revoked = (keyId: string): RecordedEvent => ({
  id: '00000000-0000-4000-8000-000000000001',
  streamName: `merchant-${MERCHANT_ID}`,
  type: 'ApiKeyRevoked',
  data: { merchantId: MERCHANT_ID, keyId, revokedAt: T0.toISOString() },
  metadata: {},
  revision: 1n,
  position: '1'.padStart(20, '0'),
  createdAt: T0,
});

/** Polls, since a notification arrives on its own connection, whenever Postgres delivers it. */
const eventually = async (check: () => boolean, timeoutMs = 3_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 20));
  }
};

describeWithPostgres('ApiKeyChangeListener', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  let cache: ApiKeyCache;
  let listener: ApiKeyChangeListener;

  const revoke = (keyId: string) =>
    prisma.$transaction((tx) => merchantProjection.apply(revoked(keyId), tx));

  beforeAll(async () => {
    db = await createTestDatabase();
    prisma = createPrismaClient(db.pool);
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  beforeEach(async () => {
    cache = new ApiKeyCache(60_000);
    listener = new ApiKeyChangeListener(db.pool, cache);
    await listener.onModuleInit();
  });

  afterEach(() => listener.onModuleDestroy());

  it('evicts a key as soon as its revoke is committed, and only that key', async () => {
    cache.set('h1', key('key_1'), Date.now());
    cache.set('h2', key('key_2'), Date.now());
    await revoke('key_1');
    await eventually(() => cache.get('h1', Date.now()) === undefined);
    expect(cache.get('h2', Date.now())?.keyId).toBe('key_2');
  });

  it('announces nothing for a change rolled back', async () => {
    cache.set('h1', key('key_1'), Date.now());
    cache.set('h9', key('key_9'), Date.now());
    await expect(
      prisma.$transaction(async (tx) => {
        await merchantProjection.apply(revoked('key_1'), tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // A later notification: had the first been sent, it would have come before this one.
    await revoke('key_9');
    await eventually(() => cache.get('h9', Date.now()) === undefined);
    expect(cache.get('h1', Date.now())?.keyId).toBe('key_1');
  });

  it('reconnects after losing its connection, clearing what it may have missed', async () => {
    const { rowCount } = await db.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
    );
    expect(rowCount).toBe(1);
    cache.set('h1', key('key_1'), Date.now()); // cached while no one listens
    await eventually(() => cache.get('h1', Date.now()) === undefined);

    cache.set('h2', key('key_2'), Date.now());
    await revoke('key_2');
    await eventually(() => cache.get('h2', Date.now()) === undefined);
  });
});
