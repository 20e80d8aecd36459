/**
 * Throwaway Postgres databases for this library's int tests, until `@xaalis/testing` provides
 * them. Test code only.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client, Pool } from 'pg';
import { EVENT_STORE_MIGRATION } from '../migration';

const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** The variables these helpers read; a spec passes `process.env` (only test code reads it). */
export interface TestPostgresEnv {
  /** Default postgres://postgres@127.0.0.1:5432/test (ARCHITECTURE, tests). */
  TEST_DATABASE_URL?: string;
  /** 'true' in CI: a missing Postgres fails the suite instead of skipping it. */
  XAALIS_REQUIRE_SERVICES?: string;
}

const testDatabaseUrl = (env: TestPostgresEnv): string =>
  env.TEST_DATABASE_URL ?? DEFAULT_TEST_DATABASE_URL;

// Runs in a child process: jest collects tests synchronously, so the answer must be too.
const PROBE = `
const [pgModule, url] = process.argv.slice(1);
const { Client } = require(pgModule);
const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
client.connect().then(() => client.query('SELECT 1')).then(
  () => client.end().then(() => process.exit(0)),
  (error) => { console.error(error.message); process.exit(1); },
);`;

/**
 * Whether the local Postgres answers. When it does not: a console.warn naming `suite` and false,
 * or, with XAALIS_REQUIRE_SERVICES=true (CI), an error that fails the suite.
 */
export function postgresAvailable(suite: string, env: TestPostgresEnv): boolean {
  const url = testDatabaseUrl(env);
  const probe = spawnSync(process.execPath, ['-e', PROBE, require.resolve('pg'), url], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (probe.status === 0) return true;
  const reason = (probe.stderr || probe.error?.message || 'no answer').trim();
  const message = `${suite} skipped: Postgres is not reachable at ${withoutPassword(url)} (${reason})`;
  if (env.XAALIS_REQUIRE_SERVICES === 'true') {
    throw new Error(`${message}. XAALIS_REQUIRE_SERVICES=true: failing instead of skipping.`);
  }
  console.warn(message);
  return false;
}

export interface TestDatabase {
  readonly name: string;
  readonly url: string;
  readonly pool: Pool;
  /** Ends the pool and drops the database. */
  drop(): Promise<void>;
}

/** A fresh database with the event store migration applied (what `npm run migrate` would do). */
export async function createTestDatabase(env: TestPostgresEnv): Promise<TestDatabase> {
  const adminUrl = testDatabaseUrl(env);
  const name = `es_test_${randomBytes(6).toString('hex')}`;
  await onAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // Room for the concurrent-appender tests and the LISTEN connection.
  const pool = new Pool({ connectionString: url.toString(), max: 20 });
  // The pool re-emits errors of idle connections (e.g. the server ending them); unheard, that
  // 'error' event would crash the test process instead of failing the query that needs them.
  pool.on('error', () => undefined);
  const drop = async () => {
    await pool.end();
    await onAdmin(adminUrl, async (admin) => {
      // pool.end() resolves before its connections have closed; FORCE would then kill them mid-goodbye.
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline) {
        const { rows } = await admin.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
          [name],
        );
        if (rows[0]!.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
  };
  try {
    await pool.query(readFileSync(eventStoreMigrationPath(), 'utf8'));
  } catch (error) {
    await drop();
    throw error;
  }
  return { name, url: url.toString(), pool, drop };
}

export const eventStoreMigrationPath = (): string =>
  join(repositoryRoot(), 'prisma', 'migrations', EVENT_STORE_MIGRATION, 'migration.sql');

async function onAdmin(url: string, work: (admin: Client) => Promise<unknown>): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

function repositoryRoot(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No nx.json above ${__dirname}`);
  }
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable TEST_DATABASE_URL)';
  }
}
