/** Throwaway databases with the event store's migrations, for this library's int tests. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createThrowawayDatabase,
  watchStatements,
  type StatementWatch,
  type ThrowawayDatabase,
} from '@xaalis/pg-testing';
import { EVENT_STORE_MIGRATIONS } from '../migration';
import { PostgresEventStore } from '../postgres-event-store';

export { describeWithPostgres } from '@xaalis/pg-testing';
export type TestDatabase = ThrowawayDatabase;

export const eventStoreMigrationPath = (name: string): string =>
  join(__dirname, '../../../../../prisma/migrations', name, 'migration.sql');

/** A fresh database with the event store migrations applied (what `npm run migrate` would do). */
export const createTestDatabase = (): Promise<TestDatabase> =>
  createThrowawayDatabase({
    prefix: 'es_test',
    // Room for the concurrent-appender tests and the LISTEN connection.
    poolMax: 20,
    setup: async (pool) => {
      for (const name of EVENT_STORE_MIGRATIONS) {
        await pool.query(readFileSync(eventStoreMigrationPath(name), 'utf8'));
      }
    },
  });

/** What a suite of `useWatchedStore` reads in its tests (set before each test). */
export interface WatchedStoreSuite {
  readonly db: TestDatabase;
  readonly store: PostgresEventStore;
  readonly watch: StatementWatch;
}

/**
 * Registers a suite's hooks for a Postgres event store over a watched pool: a throwaway database
 * for the suite, a fresh store for each test, and the statements `recorded` picks, cleared before
 * each test (see `watchStatements`).
 */
export function useWatchedStore(recorded: (name: string) => boolean): WatchedStoreSuite {
  let db: TestDatabase;
  let watch: StatementWatch;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    watch = watchStatements(db.pool, recorded);
  });

  afterAll(async () => {
    await db?.drop();
  });

  beforeEach(() => {
    watch.clear();
    store = new PostgresEventStore(watch.pool);
  });

  afterEach(async () => {
    await store.close();
  });

  return {
    get db() {
      return db;
    },
    get store() {
      return store;
    },
    get watch() {
      return watch;
    },
  };
}
