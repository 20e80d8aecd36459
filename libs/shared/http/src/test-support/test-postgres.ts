import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@xaalis/pg-testing';

export { describeWithPostgres } from '@xaalis/pg-testing';
export type TestDatabase = ThrowawayDatabase;

const MIGRATION = resolve(
  __dirname,
  '../../../../../prisma/migrations/20261122000300_http/migration.sql',
);

/** A throwaway database for one suite, with this library's migration applied. */
export const createTestDatabase = (prefix = 'xaalis_http'): Promise<TestDatabase> =>
  createThrowawayDatabase({
    prefix,
    poolMax: 30,
    setup: (pool) => pool.query(readFileSync(MIGRATION, 'utf8')),
  });
