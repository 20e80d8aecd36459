import type { Pool, PoolClient } from 'pg';
import { defer, type Observable } from 'rxjs';
import type { IntegrationEvent } from '@xaalis/contracts';
import { bareEventObject } from '@xaalis/contracts/testing';
import { PostgresEventStore, type RecordedEvent } from '@xaalis/event-store';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import { PostgresCheckpointStore } from './checkpoint-store';
import { EventForwarder } from './forwarder';
import { processEachOnce, processOnce } from './idempotent-consumer';
import { integrationEventId } from './integration-event-id';

// The jest config's per-project testTimeout does not reach the tests (jest 30 reads the global
// one), and a mock cluster's group joins alone take 3 s or more.
jest.setTimeout(30_000);

describeWithPostgres('bus on Postgres', () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = database.pool;
    await pool.query('CREATE TABLE effects (message_id TEXT NOT NULL, note TEXT NOT NULL)');
  });

  afterAll(async () => {
    await database?.drop();
  });

  beforeEach(async () => {
    await pool.query('TRUNCATE effects, bus_processed_messages, bus_checkpoints');
  });

  const effects = async () =>
    (
      await pool.query<{ message_id: string; note: string }>(
        'SELECT message_id, note FROM effects ORDER BY note',
      )
    ).rows;

  describe('processOnce', () => {
    const record = (messageId: string, note: string) => async (tx: PoolClient) => {
      await tx.query('INSERT INTO effects (message_id, note) VALUES ($1, $2)', [messageId, note]);
    };

    it('runs the work once per consumer and message, in the transaction of its row', async () => {
      expect(await processOnce(pool, 'ledger', 'evt_1', record('evt_1', 'first'))).toBe(true);
      expect(await processOnce(pool, 'ledger', 'evt_1', record('evt_1', 'again'))).toBe(false);
      expect(await processOnce(pool, 'webhooks', 'evt_1', record('evt_1', 'other consumer'))).toBe(
        true,
      );

      expect(await effects()).toEqual([
        { message_id: 'evt_1', note: 'first' },
        { message_id: 'evt_1', note: 'other consumer' },
      ]);
      const marks = await pool.query(
        'SELECT consumer, message_id FROM bus_processed_messages ORDER BY consumer',
      );
      expect(marks.rows).toEqual([
        { consumer: 'ledger', message_id: 'evt_1' },
        { consumer: 'webhooks', message_id: 'evt_1' },
      ]);
    });

    it('rolls back the work and the mark together when the work fails', async () => {
      const failing = async (tx: PoolClient) => {
        await record('evt_2', 'half done')(tx);
        throw new Error('crash');
      };

      await expect(processOnce(pool, 'ledger', 'evt_2', failing)).rejects.toThrow('crash');
      expect(await effects()).toEqual([]);

      expect(await processOnce(pool, 'ledger', 'evt_2', record('evt_2', 'redelivered'))).toBe(true);
      expect(await effects()).toEqual([{ message_id: 'evt_2', note: 'redelivered' }]);
    });

    it('processes concurrent duplicates once', async () => {
      const slow = (note: string) => async (tx: PoolClient) => {
        await tx.query('SELECT pg_sleep(0.1)');
        await record('evt_3', note)(tx);
      };

      const results = await Promise.all(
        ['a', 'b', 'c'].map((note) => processOnce(pool, 'ledger', 'evt_3', slow(note))),
      );

      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await effects()).toHaveLength(1);
    });
  });

  describe('processEachOnce', () => {
    const recordEach = (ids: string[], note: string) => async (tx: PoolClient, fresh: number[]) => {
      for (const index of fresh) {
        await tx.query('INSERT INTO effects (message_id, note) VALUES ($1, $2)', [
          ids[index],
          `${note} ${ids[index]}`,
        ]);
      }
    };

    it('runs the work once per message, a repeat or a second mention in the list skipped', async () => {
      await processOnce(pool, 'ledger', 'evt_b', async () => undefined);
      const ids = ['evt_c', 'evt_a', 'evt_b', 'evt_a'];

      expect(await processEachOnce(pool, 'ledger', ids, recordEach(ids, 'first'))).toEqual([
        true,
        true,
        false,
        false,
      ]);
      expect(await processEachOnce(pool, 'ledger', ids, recordEach(ids, 'again'))).toEqual([
        false,
        false,
        false,
        false,
      ]);
      expect(await processOnce(pool, 'ledger', 'evt_c', async () => undefined)).toBe(false);
      expect(await effects()).toEqual([
        { message_id: 'evt_a', note: 'first evt_a' },
        { message_id: 'evt_c', note: 'first evt_c' },
      ]);
    });

    it('rolls back every mark and every write when the work fails', async () => {
      const ids = ['evt_4', 'evt_5'];
      const failing = async (tx: PoolClient, fresh: number[]) => {
        await recordEach(ids, 'half done')(tx, fresh);
        throw new Error('crash');
      };

      await expect(processEachOnce(pool, 'ledger', ids, failing)).rejects.toThrow('crash');
      expect(await effects()).toEqual([]);

      expect(await processEachOnce(pool, 'ledger', ids, recordEach(ids, 'redelivered'))).toEqual([
        true,
        true,
      ]);
      expect(await effects()).toHaveLength(2);
    });

    it('processes each message of overlapping concurrent calls once', async () => {
      const lists = [
        ['evt_6', 'evt_7', 'evt_8'],
        ['evt_8', 'evt_7'],
        ['evt_9', 'evt_6'],
      ];
      const slow = (ids: string[]) => async (tx: PoolClient, fresh: number[]) => {
        await tx.query('SELECT pg_sleep(0.1)');
        await recordEach(ids, 'once')(tx, fresh);
      };

      const results = await Promise.all([
        ...lists.map((ids) => processEachOnce(pool, 'ledger', ids, slow(ids))),
        processOnce(pool, 'ledger', 'evt_7', async () => undefined),
      ]);

      const processed = results.flat().filter(Boolean).length;
      const rows = await effects();
      expect(rows.map((row) => row.message_id).sort()).toEqual(
        [...new Set(rows.map((row) => row.message_id))].sort(),
      );
      expect(processed).toBe(4);
    });
  });

  describe('PostgresCheckpointStore', () => {
    it('loads null before the first save, then the last position saved', async () => {
      const checkpoints = new PostgresCheckpointStore(pool);

      expect(await checkpoints.load('payments')).toBeNull();
      await checkpoints.save('payments', '00000000000000000007');
      await checkpoints.save('payments', '00000000000000000009');
      await checkpoints.save('billing', '00000000000000000001');

      expect(await checkpoints.load('payments')).toBe('00000000000000000009');
      expect(await checkpoints.load('billing')).toBe('00000000000000000001');
    });
  });

  describe('EventForwarder on the Postgres event store', () => {
    const toIntegrationEvents = (event: RecordedEvent): IntegrationEvent[] => [
      {
        id: integrationEventId(event),
        type: 'payout.succeeded',
        merchant_id: 'mer_01JF0000000000000000000001',
        livemode: true,
        created_at: event.createdAt.toISOString(),
        source: { stream: event.streamName, revision: Number(event.revision) },
        data: { object: bareEventObject(event.data as Record<string, unknown>) },
      },
    ];

    it('resumes from its saved checkpoint after a restart, losing nothing', async () => {
      const store = new PostgresEventStore(pool);
      const published: string[] = [];
      const client = {
        emit: <Result, Input>(_topic: string, event: Input): Observable<Result> =>
          defer(async () => {
            published.push(String((event as IntegrationEvent).data.object.id));
            return undefined as Result;
          }),
      };
      const start = async () => {
        const forwarder = new EventForwarder({
          store,
          name: 'payouts',
          streamPrefixes: ['payout-'],
          toIntegrationEvents,
          client,
          checkpoints: new PostgresCheckpointStore(pool),
          idleWaitMs: 50,
        });
        await forwarder.start();
        return forwarder;
      };
      const payout = (n: number) => ({
        type: 'PayoutSucceeded',
        data: { object: 'payout', id: `po_${n}` },
      });
      const until = async (count: number) => {
        for (const deadline = Date.now() + 10_000; published.length < count;) {
          if (Date.now() > deadline) throw new Error(`published ${published.length} of ${count}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      };

      await store.appendToStream('payout-1', [payout(1), payout(2)]);
      const first = await start();
      await until(2);
      await first.stop();
      await store.appendToStream('payout-2', [payout(3)]);
      await store.appendToStream('agent_wallet-1', [{ type: 'WalletCreated', data: {} }]);
      const second = await start();
      await until(3);
      await second.stop();

      expect(published).toEqual(['po_1', 'po_2', 'po_3']);
      const saved = await pool.query<{ position: string }>(
        'SELECT position FROM bus_checkpoints WHERE name = $1',
        ['payouts'],
      );
      expect(saved.rows).toEqual([{ position: second.position }]);
    });
  });
});
