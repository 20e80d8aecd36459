import { readFileSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import type { PoolClient, QueryConfig } from 'pg';
import { createThrowawayDatabase } from '@xaalis/pg-testing';
import {
  ConcurrencyError,
  DuplicateEventIdError,
  type NewEvent,
  type RecordedEvent,
} from './event-store';
import { EVENT_STORE_MIGRATIONS } from './migration';
import { insertCreating } from './postgres-append-creating';
import { PostgresEventStore, appendToStreamIn } from './postgres-event-store';
import { prepareEvents } from './prepare-events';
import {
  createTestDatabase,
  describeWithPostgres,
  eventStoreMigrationPath,
  type TestDatabase,
} from './testing/pg';

/**
 * The append statement over the lean schema (postgres-append.ts): appendToStream sends it on its
 * own connection, appendToStreamIn in a savepoint of the caller's transaction; an append it did
 * not write is settled by a look at the stream.
 */
describeWithPostgres('Postgres append', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db?.drop();
  });

  beforeEach(() => {
    store = new PostgresEventStore(db.pool);
  });

  afterEach(async () => {
    await store.close();
  });

  describe('appendToStream, one statement', () => {
    it('appends in one statement per append when nothing is in the way, whatever it expects', async () => {
      const query = jest.spyOn(db.pool, 'query');
      try {
        const stream = newStream();
        await store.appendToStream(stream, [event('Created')], { expectedRevision: 'no_stream' });
        await store.appendToStream(stream, [event('Changed')], { expectedRevision: 0n });
        await store.appendToStream(stream, [event('Changed')], {
          expectedRevision: 'stream_exists',
        });
        await store.close();

        const names = query.mock.calls.map(([config]) => (config as unknown as QueryConfig).name);
        expect(names.filter((name) => name !== 'es_notify')).toEqual([
          'es_append',
          'es_append_looked_up',
          'es_append_looked_up',
        ]);
      } finally {
        query.mockRestore();
      }
    });

    it('settles a conflict with one look at the stream, and reports the current revision', async () => {
      const stream = newStream();
      await store.appendToStream(stream, [event('A'), event('B')]);
      await expectConflict(
        store.appendToStream(stream, [event('C')], { expectedRevision: 'no_stream' }),
        1n,
      );
      await expectConflict(
        store.appendToStream(stream, [event('C')], { expectedRevision: -1n }),
        1n,
      );
      await expectConflict(
        store.appendToStream(newStream(), [event('C')], { expectedRevision: -1n }),
        undefined,
      );
      expect((await store.readStream(stream)).events.map((e) => e.type)).toEqual(['A', 'B']);
    });

    it('lands every batch of racing stream_exists appenders whole, at consecutive revisions', async () => {
      const stream = newStream();
      await store.appendToStream(stream, [event('Opened')]);

      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store.appendToStream(stream, [event('Raced', { i }), event('Raced', { i })], {
            expectedRevision: 'stream_exists',
          }),
        ),
      );

      const { events, currentRevision } = await store.readStream(stream);
      expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => BigInt(i)));
      expect(currentRevision).toBe(16n);
      for (const [i, result] of results.entries()) {
        const batch = events.filter((e) => (e.data as { i?: number }).i === i);
        expect(batch.map((e) => e.revision)).toEqual([
          result.nextExpectedRevision - 1n,
          result.nextExpectedRevision,
        ]);
        expect(batch[1]!.position).toBe(result.position);
      }
    });

    // The contract races batches of two for an exact revision and single events for no_stream;
    // these race the other shapes.
    it('exactly one of the single-event appenders expecting the same revision wins', async () => {
      const stream = newStream();
      await store.appendToStream(stream, [event('Opened')]);

      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          store.appendToStream(stream, [event('Raced', { i })], { expectedRevision: 0n }),
        ),
      );

      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toEqual([
        { status: 'fulfilled', value: expect.objectContaining({ nextExpectedRevision: 1n }) },
      ]);
      for (const result of results) {
        if (result.status === 'rejected') {
          expect(result.reason).toBeInstanceOf(ConcurrencyError);
          expect(result.reason).toMatchObject({ expected: 0n, actual: 1n });
        }
      }
      expect((await store.readStream(stream)).events.map((e) => e.type)).toEqual([
        'Opened',
        'Raced',
      ]);
    });

    it('exactly one of the batches creating the stream wins', async () => {
      const stream = newStream();
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          store.appendToStream(stream, [event('Created', { i }), event('Created', { i })], {
            expectedRevision: 'no_stream',
          }),
        ),
      );

      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const result of results) {
        if (result.status === 'rejected') {
          expect(result.reason).toMatchObject({ name: 'ConcurrencyError', actual: 1n });
        }
      }
      const { events } = await store.readStream(stream);
      expect(events).toHaveLength(2);
      expect(events[0]!.data).toEqual(events[1]!.data);
    });

    it('recognises the retry of a single event appended at an exact revision, also racing it', async () => {
      const stream = newStream();
      await store.appendToStream(stream, [event('Opened')]);
      const retried = withId(event('Once'));

      const results = await Promise.all(
        Array.from({ length: 4 }, () =>
          store.appendToStream(stream, [retried], { expectedRevision: 0n }),
        ),
      );
      const again = await store.appendToStream(stream, [retried], { expectedRevision: 0n });

      expect(
        new Set([...results, again].map((r) => `${r.nextExpectedRevision}@${r.position}`)).size,
      ).toBe(1);
      expect(again.nextExpectedRevision).toBe(1n);
      expect((await store.readStream(stream)).events.map((e) => e.type)).toEqual([
        'Opened',
        'Once',
      ]);
      await expect(
        store.appendToStream(stream, [retried], { expectedRevision: 'no_stream' }),
      ).rejects.toThrow(ConcurrencyError);
    });

    it('hands out global positions in batch order', async () => {
      const stream = newStream();
      const result = await store.appendToStream(
        stream,
        Array.from({ length: 50 }, (_, i) => event('Batch', { i })),
      );
      const { events } = await store.readStream(stream);
      const positions = events.map((e) => e.position);
      expect([...positions].sort()).toEqual(positions);
      expect(result).toEqual({ nextExpectedRevision: 49n, position: positions.at(-1) });
    });
  });

  describe('appendToStreamIn, inside a caller transaction', () => {
    it('reports a conflict and leaves the transaction usable', async () => {
      const stream = newStream();
      await store.appendToStream(stream, [event('Opened')]);
      await inTransaction(async (client) => {
        await expectConflict(
          appendToStreamIn(client, stream, [event('Late')], { expectedRevision: 'no_stream' }),
          0n,
        );
        await expect(
          appendToStreamIn(client, stream, [event('Next')], { expectedRevision: 0n }),
        ).resolves.toMatchObject({ nextExpectedRevision: 1n });
      });
      expect((await store.readStream(stream)).events.map((e) => e.type)).toEqual([
        'Opened',
        'Next',
      ]);
    });

    it('loses a race for a position and still appends with any, in the same transaction', async () => {
      const stream = newStream();
      await store.appendToStream(stream, [event('Opened')]);
      const first = await db.pool.connect();
      try {
        await first.query('BEGIN');
        await appendToStreamIn(first, stream, [event('First')]);
        // The second transaction reads revision 0 too, and waits on the first's position 1.
        const second = inTransaction(async (client) => {
          const result = await appendToStreamIn(client, stream, [event('Second')]);
          await client.query('SELECT 1'); // the transaction is still usable
          return result;
        });
        await waitForLockWait();
        await first.query('COMMIT');
        await expect(second).resolves.toMatchObject({ nextExpectedRevision: 2n });
      } finally {
        await rollbackAndRelease(first);
      }
      expect((await store.readStream(stream)).events.map((e) => e.type)).toEqual([
        'Opened',
        'First',
        'Second',
      ]);
    });

    it('fails with a serialization failure, not a spin, when its snapshot cannot see the winner', async () => {
      const stream = newStream();
      await store.appendToStream(stream, [event('Opened')]);
      const client = await db.pool.connect();
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
        await client.query('SELECT 1'); // takes the snapshot
        await store.appendToStream(stream, [event('Meanwhile')]);

        await expect(appendToStreamIn(client, stream, [event('Stale')])).rejects.toMatchObject({
          code: '40001',
        });
      } finally {
        await rollbackAndRelease(client);
      }
      expect((await store.readStream(stream)).events.map((e) => e.type)).toEqual([
        'Opened',
        'Meanwhile',
      ]);
    });

    it('recognises a retry and refuses an id of another stream', async () => {
      const stream = newStream();
      const batch = [event('A'), event('B')].map(withId);
      const original = await store.appendToStream(stream, batch, { expectedRevision: 'no_stream' });
      await inTransaction(async (client) => {
        await expect(
          appendToStreamIn(client, stream, batch, { expectedRevision: 'no_stream' }),
        ).resolves.toEqual(original);
      });
      await expect(
        inTransaction((client) => appendToStreamIn(client, newStream(), [batch[0]!])),
      ).rejects.toThrow(DuplicateEventIdError);
    });

    it('refuses a bad batch by rejecting, not throwing', async () => {
      const result = appendToStreamIn(db.pool, newStream(), []);
      await expect(result).rejects.toThrow(TypeError);
    });
  });

  /** A transaction on a connection of its own, committed when `work` resolves. */
  async function inTransaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } finally {
      await rollbackAndRelease(client);
    }
  }

  /** Until a backend of this database waits on another's transaction (the racing insert). */
  async function waitForLockWait(): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const { rows } = await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (rows[0]!.n > 0) return;
      await sleep(10);
    }
    throw new Error('no appender ever waited on the other');
  }
});

describeWithPostgres('Postgres append, planned on a new database', () => {
  let db: TestDatabase;

  beforeEach(async () => {
    db = await createTestDatabase();
  });

  afterEach(async () => {
    await db.drop();
  });

  it('checks an expected revision through the key even in a generic plan made while the table was small', async () => {
    // Prepared statements switch to a generic plan after five runs and keep it until the table is
    // next analyzed. One made on a few rows that scanned the table (an EXISTS run as a hashed
    // subplan) went on scanning it at every append as the events grew.
    const stream = newStream();
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await appendToStreamIn(client, stream, [event('Created')], { expectedRevision: 'no_stream' });
      await appendToStreamIn(client, stream, [event('Changed')], { expectedRevision: 0n });
      await appendToStreamIn(client, stream, [event('Changed')], {
        expectedRevision: 'stream_exists',
      });

      await expectKeyLookups(
        client,
        `es_append_looked_up('${stream}', 'exact', 2, 0, '${randomUUID()}', 'Changed', '{}', '{}')`,
      );
    } finally {
      await rollbackAndRelease(client);
    }
  });

  it('checks an append that creates streams through the key too, in a generic plan', async () => {
    const [stream, created] = [newStream(), newStream()];
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await appendToStreamIn(client, stream, [event('Opened')], { expectedRevision: 'no_stream' });
      const written = await insertCreating(
        client,
        { streamName: stream, events: prepareEvents(stream, [event('Accepted')]), expected: 0n },
        [{ streamName: created, events: prepareEvents(created, [event('Created')]) }],
      );
      expect(written).toMatchObject({ nextExpectedRevision: 1n });

      const row = (name: string, k: number) =>
        `'${name}', ${k}, '${randomUUID()}', 'E', '{}', '{}'`;
      await expectKeyLookups(
        client,
        `es_append_creating_x2(${row(newStream(), 0)}, ${row(stream, 2)},
           '${stream}', 1, ARRAY['${newStream()}'])`,
      );
    } finally {
      await rollbackAndRelease(client);
    }
  });
});

describeWithPostgres('migration 20261122000110_event_store_lean', () => {
  const [before, lean] = EVENT_STORE_MIGRATIONS;
  const apply = (name: string) =>
    db.pool.query(readFileSync(eventStoreMigrationPath(name), 'utf8'));
  let db: TestDatabase;

  beforeEach(async () => {
    db = await createThrowawayDatabase({
      prefix: 'es_lean',
      setup: (pool) => pool.query(readFileSync(eventStoreMigrationPath(before), 'utf8')),
    });
  });

  afterEach(async () => {
    await db.drop();
  });

  /** What the store of the first migration wrote: the stream's row and its events. */
  const appendBefore = (stream: string, ids: string[], expected: string, revision?: bigint) =>
    db.pool.query(
      `SELECT * FROM es_append_to_stream($1, $2, $3, $4::uuid[], $5::text[], $6::jsonb[], $7::jsonb[], false)`,
      [
        stream,
        expected,
        revision === undefined ? null : String(revision),
        ids,
        ids.map((_, i) => `Old${i}`),
        ids.map((_, i) => JSON.stringify({ i })),
        ids.map(() => '{}'),
      ],
    );

  it('keeps the events of an existing database readable, and its streams appendable', async () => {
    const stream = newStream();
    const other = newStream();
    const ids = [randomUUID(), randomUUID()];
    await appendBefore(stream, ids, 'no_stream');
    await appendBefore(other, [randomUUID()], 'no_stream');
    await appendBefore(stream, [randomUUID()], 'exact', 1n);

    await apply(lean);
    const store = new PostgresEventStore(db.pool);
    try {
      const { events, currentRevision } = await store.readStream(stream);
      expect(currentRevision).toBe(2n);
      expect(events.map((e) => [e.type, e.revision, e.data])).toEqual([
        ['Old0', 0n, { i: 0 }],
        ['Old1', 1n, { i: 1 }],
        ['Old0', 2n, { i: 0 }],
      ]);
      const all = await readAllEventually(store, [stream, other], 4);
      expect(all.map((e) => e.streamName)).toEqual([stream, stream, other, stream]);

      await expectConflict(
        store.appendToStream(stream, [event('New')], { expectedRevision: 1n }),
        2n,
      );
      await expect(
        store.appendToStream(stream, [event('New')], { expectedRevision: 2n }),
      ).resolves.toMatchObject({ nextExpectedRevision: 3n });
      // A retry of an append made before the migration is still recognised.
      const retried = await store.appendToStream(
        stream,
        ids.map((id, i) => ({ id, type: `Old${i}`, data: { i } })),
        { expectedRevision: 'no_stream' },
      );
      expect(retried).toEqual({ nextExpectedRevision: 1n, position: events[1]!.position });
      const { rows } = await db.pool.query(`SELECT to_regclass('es_streams') AS streams`);
      expect(rows[0].streams).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('refuses to drop es_streams when it does not match the events', async () => {
    const stream = newStream();
    await appendBefore(stream, [randomUUID(), randomUUID()], 'no_stream');
    await db.pool.query('UPDATE es_streams SET stream_position = 5 WHERE stream_name = $1', [
      stream,
    ]);

    await expect(apply(lean)).rejects.toThrow(/does not match its events/);
    const { rows } = await db.pool.query(`SELECT to_regclass('es_streams') AS streams`);
    expect(rows[0].streams).not.toBeNull();
  });
});

async function expectConflict(attempt: Promise<unknown>, actual: bigint | undefined) {
  const error = await attempt.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ConcurrencyError);
  expect(error).toMatchObject({ actual });
}

/** A failed assertion must not hand the pool a connection with a transaction still open. */
async function rollbackAndRelease(client: PoolClient): Promise<void> {
  await client.query('ROLLBACK').catch(() => undefined);
  client.release();
}

/** The prepared statement's plan finds rows through the key: no scan, no hashed subplan. */
async function expectKeyLookups(client: PoolClient, execute: string): Promise<void> {
  const explained = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE ${execute}`);
  const plan = explained.rows.map((row) => row['QUERY PLAN']).join('\n');
  expect(plan).toContain('es_messages_pkey');
  expect(plan).not.toContain('Seq Scan');
  expect(plan).not.toContain('hashed SubPlan');
}

const newStream = () => `lean${randomBytes(6).toString('hex')}-1`;
const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({ type, data });
const withId = (e: NewEvent): NewEvent => ({ ...e, id: randomUUID() });
/** Other sessions of the cluster may hold readAll back for a moment (see the contract). */
async function readAllEventually(
  store: PostgresEventStore,
  streamPrefixes: string[],
  count: number,
): Promise<RecordedEvent[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const events = await store.readAll({ streamPrefixes });
    if (events.length >= count || Date.now() > deadline) return events;
    await sleep(20);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
