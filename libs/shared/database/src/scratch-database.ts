import { randomBytes } from 'node:crypto';
import { Client, type Pool } from 'pg';
import { DEFAULT_MIGRATIONS_DIR, runMigrations } from './migrations';
import { createPool } from './pool';

export interface ScratchDatabase {
  /** URL of the new database. */
  url: string;
  /** A pool on it, closed by drop(). */
  pool: Pool;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

export interface ScratchDatabaseOptions {
  /** Name prefix; a random suffix follows. Default `xaalis_scratch`. */
  prefix?: string;
  /** Apply the migrations (default true). */
  migrate?: boolean;
  migrationsDir?: string;
}

/**
 * A new, empty (then migrated) database on the server `serverUrl` points at, for tests and
 * throwaway checks. The URL's own database is only used to issue CREATE and DROP DATABASE.
 */
export async function createScratchDatabase(serverUrl: string, options: ScratchDatabaseOptions = {}): Promise<ScratchDatabase> {
  const name = `${options.prefix ?? 'xaalis_scratch'}_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = withDatabase(serverUrl, name);
  const pool = createPool(url, { applicationName: name, onError: () => undefined });
  const drop = async () => {
    await pool.end();
    // FORCE (Postgres 13+): a connection a test leaked must not keep the database alive.
    await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  if (options.migrate ?? true) {
    try {
      await runMigrations(pool, { dir: options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR });
    } catch (error) {
      await drop();
      throw error;
    }
  }
  return { url, pool, drop };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
