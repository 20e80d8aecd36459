import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client, Pool } from 'pg';

export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const MIGRATION = resolve(
  __dirname,
  '../../../../../prisma/migrations/20261122000300_http/migration.sql',
);

export interface TestPostgres {
  /** `TEST_DATABASE_URL`: a database on the server where each suite creates its own. */
  adminUrl: string;
  /** `XAALIS_REQUIRE_SERVICES=true` (CI): unreachable is a failure instead of a skip. */
  requireServices: boolean;
}

/**
 * Runs the suite when the test Postgres answers, asked synchronously so that jest can be told
 * `describe` or `describe.skip` while it collects the file. The spec reads the environment (lint
 * keeps `process.env` out of library files).
 */
export function describeWithPostgres(name: string, postgres: TestPostgres, body: () => void): void {
  const problem = postgresProblem(postgres.adminUrl);
  if (problem === undefined) return describe(name, body);
  if (postgres.requireServices) {
    describe(name, () => {
      it('needs Postgres', () => {
        throw new Error(
          `Postgres is required (XAALIS_REQUIRE_SERVICES=true) but unreachable: ${problem}`,
        );
      });
    });
    return;
  }
  console.warn(
    `Postgres tests skipped: ${problem} (${redact(postgres.adminUrl)}). Set TEST_DATABASE_URL or start Postgres.`,
  );
  describe.skip(name, body);
}

function postgresProblem(adminUrl: string): string | undefined {
  const probe = `const { Client } = require('pg');
    const c = new Client({ connectionString: process.argv[1], connectionTimeoutMillis: 3000 });
    c.connect().then(() => c.end()).catch((e) => { console.error(e.message); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['-e', probe, adminUrl], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (result.status === 0) return undefined;
  return (result.stderr || result.error?.message || 'no answer').trim().split('\n')[0];
}

export interface TestDatabase {
  pool: Pool;
  drop(): Promise<void>;
}

/** A throwaway database for one suite, with this library's migration applied. */
export async function createTestDatabase(
  adminUrl: string,
  prefix = 'xaalis_http',
): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new Pool({ connectionString: url.toString(), max: 30 });
  await pool.query(readFileSync(MIGRATION, 'utf8'));
  return {
    pool,
    drop: async () => {
      await pool.end();
      await withAdmin(adminUrl, (admin) =>
        admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    },
  };
}

async function withAdmin<T>(adminUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
