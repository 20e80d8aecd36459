/** Throwaway databases with the event store's migration, for this library's int tests. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@xaalis/pg-testing';
import { EVENT_STORE_MIGRATION } from '../migration';

export { describeWithPostgres } from '@xaalis/pg-testing';
export type TestDatabase = ThrowawayDatabase;

export const eventStoreMigrationPath = (): string =>
  join(__dirname, '../../../../../prisma/migrations', EVENT_STORE_MIGRATION, 'migration.sql');

/** A fresh database with the event store migration applied (what `npm run migrate` would do). */
export const createTestDatabase = (): Promise<TestDatabase> =>
  createThrowawayDatabase({
    prefix: 'es_test',
    // Room for the concurrent-appender tests and the LISTEN connection.
    poolMax: 20,
    setup: (pool) => pool.query(readFileSync(eventStoreMigrationPath(), 'utf8')),
  });
