import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@xaalis/pg-testing';

export { describeWithPostgres } from '@xaalis/pg-testing';
export type TestDatabase = ThrowawayDatabase;

const MIGRATIONS = [
  '20261122000300_http',
  '20261125000100_idempotency_object_ids',
  '20261127000200_rate_limits',
].map((name) => resolve(__dirname, `../../../../../prisma/migrations/${name}/migration.sql`));

/** A throwaway database for one suite, with this library's migrations applied. */
export const createTestDatabase = (prefix = 'xaalis_http'): Promise<TestDatabase> =>
  createThrowawayDatabase({
    prefix,
    poolMax: 30,
    setup: async (pool) => {
      for (const migration of MIGRATIONS) await pool.query(readFileSync(migration, 'utf8'));
    },
  });
