import { runMigrations } from '@xaalis/database';
import {
  createThrowawayDatabase,
  postgresProblem,
  type ThrowawayDatabase,
} from '@xaalis/pg-testing';

export { describeWithPostgres, testDatabaseUrl } from '@xaalis/pg-testing';

/** `url`, a `pool` on it, and `drop()` (closes the pool, drops the database). */
export type TestDatabase = ThrowawayDatabase;

export interface TestDatabaseOptions {
  /** Apply every migration of prisma/migrations (default true). */
  migrate?: boolean;
  migrationsDir?: string;
}

/**
 * A fresh database on the test server, named `xaalis_test_<random>`, with every migration of
 * prisma/migrations applied unless `migrate: false`.
 */
export function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  return createThrowawayDatabase({
    prefix: 'xaalis_test',
    setup:
      options.migrate === false
        ? undefined
        : (pool) => runMigrations(pool, { dir: options.migrationsDir }),
  });
}

export async function postgresAvailable(): Promise<boolean> {
  return postgresProblem() === null;
}
