import { randomBytes, randomUUID } from 'node:crypto';
import { Pool, type PoolClient, type QueryConfig } from 'pg';
import {
  ConcurrencyError,
  DuplicateEventIdError,
  type NewEvent,
  type RecordedEvent,
} from './event-store';
import { eventStoreContract } from './event-store.contract';
import {
  PEEK_PREFIXED_SQL,
  PEEK_SQL,
  PostgresEventStore,
  READ_ALL_PREFIXED_SQL,
  READ_ALL_SQL,
  appendToStreamIn,
} from './postgres-event-store';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from './testing/pg';

describeWithPostgres('PostgresEventStore', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db?.drop();
  });

  eventStoreContract('PostgresEventStore', async () => new PostgresEventStore(db.pool));

  describe('beyond the contract', () => {
    let store: PostgresEventStore;

    beforeEach(() => {
      store = new PostgresEventStore(db.pool);
    });

    afterEach(async () => {
      await store.close();
    });

    it('reads after a checkpoint through the index even with the generic plan of a prepared statement', async () => {
      // Prepared statements switch to a generic plan after five runs; one that scanned the table
      // would cost every subscriber's wake a pass over all events.
      const category = newCategory();
      for (let i = 0; i < 30; i++) {
        await store.appendToStream(
          `${category}-${i}`,
          Array.from({ length: 100 }, (_, n) => ({ type: 'Filler', data: { n } })),
        );
      }
      const client = await db.pool.connect();
      try {
        await client.query('ANALYZE es_messages');
        await client.query('SET plan_cache_mode = force_generic_plan');
        const head = await client.query<{ x: string; g: string }>(
          'SELECT max(transaction_id)::text AS x, max(global_position)::text AS g FROM es_messages',
        );
        const { x, g } = head.rows[0]!;
        const plans: Record<string, string> = {};
        for (const [name, sql, args] of [
          ['peek', PEEK_SQL, `'${x}', ${g}`],
          ['peek_prefixed', PEEK_PREFIXED_SQL, `'${x}', ${g}, '{${category}-}'`],
          ['read_all', READ_ALL_SQL, `'${x}', ${g}, 500`],
          ['read_all_prefixed', READ_ALL_PREFIXED_SQL, `'${x}', ${g}, 500, '{${category}-}'`],
        ] as const) {
          await client.query(`PREPARE plan_${name} AS ${sql}`);
          const explained = await client.query(`EXPLAIN EXECUTE plan_${name}(${args})`);
          plans[name] = explained.rows.map((row) => row['QUERY PLAN']).join('\n');
          await client.query(`DEALLOCATE plan_${name}`);
        }
        for (const plan of Object.values(plans)) {
          expect(plan).not.toContain('Seq Scan');
          expect(plan).toContain('es_messages_global_order_idx');
        }
      } finally {
        await client.query('RESET plan_cache_mode').catch(() => undefined);
        client.release();
      }
    });

    it('never hands out an event committed after a later-ordered one: A open, B committed, then A', async () => {
      const category = newCategory();
      const transaction = await db.pool.connect();
      try {
        await transaction.query('BEGIN');
        const a = await appendToStreamIn(transaction, `${category}-a`, [event('A')]);
        const b = await store.appendToStream(`${category}-b`, [event('B')]);
        expect(a.position < b.position).toBe(true);

        // B is committed and readable by readStream, but readAll holds it back behind A.
        expect((await store.readStream(`${category}-b`)).events).toHaveLength(1);
        expect(await store.readAll({ streamPrefixes: [category] })).toEqual([]);
        expect((await store.readAll()).some((e) => e.streamName.startsWith(category))).toBe(false);

        await transaction.query('COMMIT');
      } finally {
        await rollbackAndRelease(transaction);
      }
      const events = await readAllEventually(store, [category], 2);
      expect(events.map((e) => [e.type, e.position])).toEqual([
        ['A', expect.any(String)],
        ['B', expect.any(String)],
      ]);
    });

    it('a reader that read up to an event before A still gets A and then B', async () => {
      const category = newCategory();
      const { position: checkpoint } = await store.appendToStream(`${category}-0`, [
        event('Before'),
      ]);
      await readAllEventually(store, [category], 1);
      const transaction = await db.pool.connect();
      const waking = store.waitForAppend(checkpoint, 30_000);
      try {
        await transaction.query('BEGIN');
        await appendToStreamIn(transaction, `${category}-a`, [event('A')]);
        await store.appendToStream(`${category}-b`, [event('B')]);
        expect(await store.readAll({ after: checkpoint, streamPrefixes: [category] })).toEqual([]);
        await transaction.query('COMMIT');
      } finally {
        await rollbackAndRelease(transaction);
      }
      await waking;
      const after = await readAllEventually(store, [category], 2, checkpoint);
      expect(after.map((e) => e.type)).toEqual(['A', 'B']);
    });

    it('a rolled-back append leaves nothing, and what came after it becomes readable', async () => {
      const category = newCategory();
      const transaction = await db.pool.connect();
      try {
        await transaction.query('BEGIN');
        await appendToStreamIn(transaction, `${category}-a`, [event('A')]);
        await store.appendToStream(`${category}-b`, [event('B')]);
        await transaction.query('ROLLBACK');
      } finally {
        await rollbackAndRelease(transaction);
      }
      expect((await readAllEventually(store, [category], 1)).map((e) => e.type)).toEqual(['B']);
      expect((await store.readStream(`${category}-a`)).currentRevision).toBeUndefined();
    });

    it('appends a batch in one statement, then announces it with a NOTIFY', async () => {
      const query = jest.spyOn(db.pool, 'query');
      try {
        const events = Array.from({ length: 100 }, (_, i) => event('Batch', { i }));
        const category = newCategory();
        const { position } = await store.appendToStream(`${category}-1`, events);
        await store.close(); // lets the announcement finish

        const calls = query.mock.calls.map(([config]) => config as unknown as QueryConfig);
        expect(calls.map((config) => config.name)).toEqual([
          'es_append_x100_looked_up',
          'es_notify',
        ]);
        expect(calls[1]!.values).toEqual(['es_appended', `${position} ["${category}-"]`]);
      } finally {
        query.mockRestore();
      }
    });

    it('announces a burst of appends with fewer NOTIFYs, up to the latest position', async () => {
      const query = jest.spyOn(db.pool, 'query');
      try {
        const results = await Promise.all(
          Array.from({ length: 20 }, () => store.appendToStream(newStream(), [event('Burst')])),
        );
        await store.close();

        const notified = query.mock.calls
          .map(([config]) => config as unknown as QueryConfig)
          .filter((config) => config.name === 'es_notify')
          .map((config) => (config.values![1] as string).split(' ')[0]);
        const latest = results
          .map((r) => r.position)
          .sort()
          .at(-1);
        expect(notified.length).toBeGreaterThanOrEqual(1);
        expect(notified.length).toBeLessThan(20);
        expect(notified.sort().at(-1)).toBe(latest);
      } finally {
        query.mockRestore();
      }
    });

    it('an append inside a caller transaction is announced by that commit', async () => {
      const { position } = await store.appendToStream(newStream(), [event('Before')]);
      await store.waitForAppend(null, 1_000); // opens the LISTEN connection
      await sleep(100);
      let woke = false;
      const waiting = store.waitForAppend(position, 30_000).then(() => (woke = true));
      const transaction = await db.pool.connect();
      try {
        await transaction.query('BEGIN');
        await appendToStreamIn(transaction, newStream(), [event('InTransaction')]);
        await sleep(150);
        expect(woke).toBe(false);
        await transaction.query('COMMIT');
      } finally {
        await rollbackAndRelease(transaction);
      }
      expect(await elapsed(() => waiting)).toBeLessThan(5_000);
    });

    it('recognises a retry racing its original (same ids, exact and any)', async () => {
      for (const expectedRevision of [0n, 'any'] as const) {
        const stream = newStream();
        await store.appendToStream(stream, [event('Opened')]);
        const batch = [event('A'), event('B')].map(withId);

        const results = await Promise.all(
          Array.from({ length: 6 }, () =>
            store.appendToStream(stream, batch, { expectedRevision }),
          ),
        );

        expect(new Set(results.map((r) => `${r.nextExpectedRevision}@${r.position}`)).size).toBe(1);
        expect((await store.readStream(stream)).events.map((e) => e.type)).toEqual([
          'Opened',
          'A',
          'B',
        ]);
      }
    });

    it('refuses a batch that only partly repeats an earlier append', async () => {
      const stream = newStream();
      const first = withId(event('A'));
      await store.appendToStream(stream, [first, event('B')], { expectedRevision: 'no_stream' });

      await expect(
        store.appendToStream(stream, [first, event('C')], { expectedRevision: 'no_stream' }),
      ).rejects.toThrow(ConcurrencyError);
      expect((await store.readStream(stream)).events.map((e) => e.type)).toEqual(['A', 'B']);
    });

    it('keeps event ids unique across streams', async () => {
      const shared = withId(event('A'));
      await store.appendToStream(newStream(), [shared]);
      const other = newStream();

      await expect(store.appendToStream(other, [shared])).rejects.toThrow(DuplicateEventIdError);
      expect((await store.readStream(other)).currentRevision).toBeUndefined();
    });

    it('refuses a checkpoint of another store', async () => {
      await expect(
        store.readAll({ after: '00000000000000000012/00000000000000000010' }),
      ).rejects.toThrow(TypeError);
    });

    it('wakes at once, without looking at the table, after its own append past the checkpoint', async () => {
      const { position: before } = await store.appendToStream(newStream(), [event('Read')]);
      await store.appendToStream(newStream(), [event('Later')]);
      const query = jest.spyOn(db.pool, 'query');
      try {
        expect(await elapsed(() => store.waitForAppend(before, 30_000))).toBeLessThan(1_000);
        const looked = query.mock.calls.filter(
          ([config]) => (config as unknown as QueryConfig).name === 'es_peek',
        );
        expect(looked).toHaveLength(0);
        // With nothing of its own after the checkpoint it looks, and sleeps.
        const { position: last } = await store.appendToStream(newStream(), [event('Last')]);
        expect(await elapsed(() => store.waitForAppend(last, 300))).toBeGreaterThanOrEqual(250);
        expect(
          query.mock.calls.some(
            ([config]) => (config as unknown as QueryConfig).name === 'es_peek',
          ),
        ).toBe(true);
      } finally {
        query.mockRestore();
      }
    });

    it('does not wake for the notification of an append it has already read past', async () => {
      await store.waitForAppend(null, 1_000); // opens the LISTEN connection
      await sleep(100);
      const { position } = await store.appendToStream(newStream(), [event('Seen')]);
      const took = await elapsed(() => store.waitForAppend(position, 300));
      expect(took).toBeGreaterThanOrEqual(250);
    });

    it("sleeps through other processes' appends to streams it does not read", async () => {
      const other = new PostgresEventStore(db.pool); // another process's store
      try {
        const [read, unread] = [newCategory(), newCategory()];
        await store.waitForAppend(null, 1_000); // opens the LISTEN connection
        await sleep(100);
        const { position } = await other.appendToStream(`${unread}-1`, [event('Unread')]);
        let woke = false;
        const waiting = store
          .waitForAppend(position, 30_000, undefined, [`${read}-`])
          .then(() => (woke = true));
        await other.appendToStream(`${unread}-2`, [event('Unread')]);
        await sleep(300);
        expect(woke).toBe(false);

        await other.appendToStream(`${read}-1`, [event('Read')]);
        expect(await elapsed(() => waiting)).toBeLessThan(5_000);
      } finally {
        await other.close();
      }
    });

    it('wakes every reader for a notification that names no streams (an older release)', async () => {
      const read = newCategory();
      await store.waitForAppend(null, 1_000);
      await sleep(100);
      const { position } = await store.appendToStream(newStream(), [event('Unread')]);
      let woke = false;
      const waiting = store
        .waitForAppend(position, 30_000, undefined, [`${read}-`])
        .then(() => (woke = true));
      await sleep(300);
      expect(woke).toBe(false);

      // An older release's payload: a position alone (here one past the waiter's checkpoint).
      await db.pool.query(`SELECT pg_notify('es_appended', $1)`, [`${position}9`]);
      expect(await elapsed(() => waiting)).toBeLessThan(5_000);
    });

    it('falls back to polling when it cannot LISTEN, without spinning', async () => {
      const pool = new Pool({ connectionString: db.url, max: 1, idleTimeoutMillis: 0 });
      pool.on('error', () => undefined);
      const degraded = new PostgresEventStore(pool);
      try {
        await pool.query('SELECT 1'); // the pool keeps this connection, so it goes on working...
        pool.options.connectionString = 'postgres://postgres@127.0.0.1:1/nowhere'; // ...LISTEN cannot
        const { position } = await degraded.appendToStream(newStream(), [event('Before')]);
        const query = jest.spyOn(pool, 'query');

        let woke = false;
        const started = Date.now();
        const waiting = degraded.waitForAppend(position, 20_000).then(() => (woke = true));
        await sleep(300);
        expect(woke).toBe(false);
        await store.appendToStream(newStream(), [event('After')]);

        expect(await elapsed(() => waiting)).toBeLessThan(3_000);
        // Transaction ids are cluster-wide, so other suites' open transactions make it look again
        // at the 50 ms "pending" pace; a spin would be far faster than that.
        const pace = (Date.now() - started) / query.mock.calls.length;
        expect(pace).toBeGreaterThanOrEqual(40);
      } finally {
        await degraded.close();
        await pool.end();
      }
    });

    it('close() wakes the waiters and stops listening', async () => {
      const { position } = await store.appendToStream(newStream(), [event('Last')]);
      const waiting = store.waitForAppend(position, 60_000);
      await sleep(100);
      await store.close();
      expect(await elapsed(() => waiting)).toBeLessThan(1_000);
      const listeners = await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'`,
      );
      expect(listeners.rows[0]!.n).toBe(0);
    });
  });
});

/** A failed assertion must not hand the pool a connection with a transaction still open. */
async function rollbackAndRelease(client: PoolClient): Promise<void> {
  await client.query('ROLLBACK').catch(() => undefined);
  client.release();
}

const newCategory = () => `pg${randomBytes(6).toString('hex')}`;
const newStream = () => `${newCategory()}-1`;
const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({ type, data });
const withId = (e: NewEvent): NewEvent => ({ ...e, id: randomUUID() });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function elapsed(action: () => Promise<unknown>): Promise<number> {
  const started = Date.now();
  await action();
  return Date.now() - started;
}

/** Other sessions of the cluster may hold readAll back for a moment (see the contract). */
async function readAllEventually(
  store: PostgresEventStore,
  streamPrefixes: string[],
  count: number,
  after: string | null = null,
): Promise<RecordedEvent[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const events = await store.readAll({ after, streamPrefixes });
    if (events.length >= count || Date.now() > deadline) return events;
    await sleep(20);
  }
}
