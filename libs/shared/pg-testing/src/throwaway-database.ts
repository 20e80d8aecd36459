import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import { testDatabaseUrl } from './test-postgres';

export interface ThrowawayDatabase {
  name: string;
  url: string;
  /** A pool on the database, ended by drop(). */
  pool: Pool;
  /** Ends the pool, waits for its connections to go, and drops the database. */
  drop(): Promise<void>;
}

export interface ThrowawayDatabaseOptions {
  /** Name prefix; a random suffix follows. */
  prefix: string;
  poolMax?: number;
  /** Fills the new database (a migration file, all migrations…); on failure it is dropped. */
  setup?: (pool: Pool) => Promise<unknown>;
}

/**
 * A new database on the test server, for one suite. Every library's int tests use this one
 * helper; it depends on nothing of ours, so the event store and database libraries, on which
 * `@xaalis/testing` is built, can use it too.
 */
export async function createThrowawayDatabase(
  options: ThrowawayDatabaseOptions,
): Promise<ThrowawayDatabase> {
  const serverUrl = testDatabaseUrl();
  const name = `${options.prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = withDatabase(serverUrl, name);
  const pool = new Pool({
    connectionString: url,
    max: options.poolMax ?? 20,
    application_name: name,
  });
  // Idle connections' errors (the server ending them at drop) must not crash the test process.
  pool.on('error', () => undefined);
  const drop = async () => {
    await pool.end();
    await onServer(serverUrl, async (admin) => {
      // pool.end() resolves before its connections have closed; FORCE would kill them mid-goodbye
      // and their error would surface in whatever test runs next.
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline) {
        const { rows } = await admin.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
          [name],
        );
        if (rows[0]!.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // FORCE (Postgres 13+): a connection a test leaked must not keep the database alive.
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
  };
  if (options.setup) {
    try {
      await options.setup(pool);
    } catch (error) {
      await drop();
      throw error;
    }
  }
  return { name, url, pool, drop };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function onServer(
  serverUrl: string,
  work: (admin: Client) => Promise<unknown>,
): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
