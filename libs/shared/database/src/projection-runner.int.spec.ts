import { PostgresEventStore } from '@xaalis/event-store';
import { createTestDatabase, describeWithPostgres } from './testing/test-postgres';
import type { ThrowawayDatabase as TestDatabase } from '@xaalis/pg-testing';
import type { Projection } from './projection';
import { createPrismaClient, type PrismaClient } from './prisma';
import { ProjectionRunner } from './projection-runner';

/**
 * A read model of event counts per merchant stream. Every application also inserts the event's
 * id under a primary key, so applying an event twice would fail the batch loudly.
 */
const READ_MODEL = `
  CREATE TABLE test_merchant_counts (stream_name text PRIMARY KEY, events int NOT NULL);
  CREATE TABLE test_applied_events (event_id uuid PRIMARY KEY)`;

function merchantCounts(options: { delayMs?: number } = {}): Projection {
  return {
    name: 'test-merchant-counts',
    streamPrefixes: ['merchant-'],
    async apply(event, tx) {
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      await tx.$executeRaw`INSERT INTO test_applied_events (event_id) VALUES (${event.id}::uuid)`;
      await tx.$executeRaw`
        INSERT INTO test_merchant_counts (stream_name, events) VALUES (${event.streamName}, 1)
        ON CONFLICT (stream_name) DO UPDATE SET events = test_merchant_counts.events + 1`;
    },
    async reset(tx) {
      await tx.$executeRaw`DELETE FROM test_applied_events`;
      await tx.$executeRaw`DELETE FROM test_merchant_counts`;
    },
  };
}

const created = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ type: 'MerchantCreated', data: { n: i } }));

describeWithPostgres('ProjectionRunner on Postgres', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  let prisma: PrismaClient;
  const runners: ProjectionRunner[] = [];

  const newRunner = (projection = merchantCounts(), batchSize = 50) => {
    const runner = new ProjectionRunner({
      store,
      prisma,
      projections: [projection],
      batchSize,
      idleWaitMs: 100,
    });
    runners.push(runner);
    return runner;
  };

  const counts = async () => {
    const { rows } = await db.pool.query(
      'SELECT stream_name, events FROM test_merchant_counts ORDER BY stream_name',
    );
    return Object.fromEntries(rows.map((row) => [row.stream_name, row.events]));
  };

  beforeEach(async () => {
    db = await createTestDatabase();
    await db.pool.query(READ_MODEL);
    store = new PostgresEventStore(db.pool);
    prisma = createPrismaClient(db.pool);
  });

  afterEach(async () => {
    await Promise.all(runners.splice(0).map((runner) => runner.stop()));
    await prisma.$disconnect();
    await store.close();
    await db.drop();
  });

  it('applies each event once with two runners racing while events are appended', async () => {
    const first = newRunner(merchantCounts(), 7);
    const second = newRunner(merchantCounts(), 7);
    await Promise.all([first.start(), second.start()]);
    let last = '';
    for (let i = 0; i < 20; i++) {
      last = (await store.appendToStream(`merchant-${i % 4}`, created(3))).position;
      await store.appendToStream(`payment-${i}`, created(1));
    }

    await Promise.all([first.catchUpTo(last), second.catchUpTo(last)]);

    expect(await counts()).toEqual({
      'merchant-0': 15,
      'merchant-1': 15,
      'merchant-2': 15,
      'merchant-3': 15,
    });
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM test_applied_events');
    expect(rows[0].n).toBe(60);
    const checkpoint = await prisma.projectionCheckpoint.findUnique({
      where: { name: 'test-merchant-counts' },
    });
    expect(checkpoint?.position).toBe(last);
  });

  it('catchUpTo lets a request read its own write', async () => {
    const runner = newRunner();
    await runner.start();
    await store.appendToStream('merchant-a', created(2));
    const appended = await store.appendToStream('merchant-b', created(1));

    await runner.catchUpTo(appended.position);

    expect(await counts()).toEqual({ 'merchant-a': 2, 'merchant-b': 1 });
  });

  it('catchUpTo returns for a write in a stream no projection reads', async () => {
    const runner = newRunner();
    await store.appendToStream('merchant-a', created(1));
    const foreign = await store.appendToStream('payment-x', created(1));

    await runner.catchUpTo(foreign.position, { timeoutMs: 5000 });

    expect(await counts()).toEqual({ 'merchant-a': 1 });
  });

  it('rebuilds in one transaction while readers keep the old rows and other runners skip it', async () => {
    const runner = newRunner(merchantCounts({ delayMs: 2 }), 40);
    const bystander = newRunner(merchantCounts(), 40);
    await store.appendToStream('merchant-a', created(100));
    const before = await store.appendToStream('merchant-b', created(50));
    await bystander.catchUpTo(before.position);
    await db.pool.query(
      `UPDATE test_merchant_counts SET events = 999 WHERE stream_name = 'merchant-a'`,
    );

    const progress: number[] = [];
    const seenDuring: unknown[] = [];
    const rebuilding = runner.rebuild('test-merchant-counts', (step) => progress.push(step.events));
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 40));
      seenDuring.push((await counts())['merchant-a']);
      await bystander.runOnce(); // must neither block on the rebuild nor apply anything twice
    }
    // The store shows events appended now only once the rebuild commits (its xmin guard).
    const during = await store.appendToStream('merchant-c', created(1));
    const result = await rebuilding;

    expect(new Set(seenDuring)).toEqual(new Set([999]));
    expect(result).toEqual({
      projection: 'test-merchant-counts',
      events: 150,
      position: before.position,
    });
    expect(progress).toEqual([40, 80, 120, 150]);
    expect(await counts()).toEqual({ 'merchant-a': 100, 'merchant-b': 50 });

    const after = await store.appendToStream('merchant-a', created(1));
    await bystander.catchUpTo(after.position);
    expect(after.position > during.position).toBe(true);
    expect(await counts()).toEqual({ 'merchant-a': 101, 'merchant-b': 50, 'merchant-c': 1 });
  });
});
