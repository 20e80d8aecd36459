/**
 * Throwaway databases for this library's own int tests, with its migrations. `@xaalis/testing`
 * is built on this library, so importing it back from here would be a dependency cycle.
 */
import { createThrowawayDatabase, type ThrowawayDatabase } from '@xaalis/pg-testing';
import { runMigrations, type MigrationOptions } from '../migrations';

export { describeWithPostgres } from '@xaalis/pg-testing';

export const createTestDatabase = (
  options: { migrate?: boolean; migrationsDir?: string } = {},
): Promise<ThrowawayDatabase> =>
  createThrowawayDatabase({
    prefix: 'xaalis_test',
    setup:
      options.migrate === false
        ? undefined
        : (pool) => runMigrations(pool, { dir: options.migrationsDir } satisfies MigrationOptions),
  });
