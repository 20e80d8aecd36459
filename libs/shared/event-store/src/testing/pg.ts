/** Throwaway databases with the event store's migrations, for this library's int tests. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@xaalis/pg-testing';
import { EVENT_STORE_MIGRATIONS } from '../migration';

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
