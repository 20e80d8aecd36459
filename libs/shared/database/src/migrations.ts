import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client, type Pool, type PoolClient } from 'pg';

/** The repository's `prisma/migrations`, when running from source. */
export const DEFAULT_MIGRATIONS_DIR = resolve(__dirname, '../../../../prisma/migrations');

/**
 * Prisma Migrate's own advisory lock key: our runner and `prisma migrate deploy` exclude each other
 * as well as themselves.
 */
const MIGRATION_LOCK_KEY = 72707369;

export interface MigrationFile {
  /** The folder name, e.g. `20261122000200_projections`. */
  name: string;
  sql: string;
  /** sha256 of the file, lowercase hex: what Prisma stores in `_prisma_migrations.checksum`. */
  checksum: string;
}

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

export interface MigrationOptions {
  dir?: string;
  /** Reports each migration as it is applied (the CLI prints them). */
  onApplied?: (name: string, ms: number) => void;
}

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

export const checksumOf = (sql: string): string =>
  createHash('sha256').update(sql, 'utf8').digest('hex');

/**
 * Prisma accepts a script whose line endings git changed since it was applied, and so do we
 * (prisma-engines, `script_matches_checksum`).
 */
export function checksumMatches(sql: string, checksum: string): boolean {
  return [sql, sql.replace(/\r\n/g, '\n'), sql.replace(/\r?\n/g, '\r\n')].some(
    (variant) => checksumOf(variant) === checksum,
  );
}

/** Prisma's layout: `<dir>/<name>/migration.sql`, applied in name order. */
export function listMigrations(dir: string = DEFAULT_MIGRATIONS_DIR): MigrationFile[] {
  if (!existsSync(dir)) throw new MigrationError(`No migrations folder at ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: checksumOf(sql) };
    });
}

// Prisma's DDL for its table, so `prisma migrate deploy` and `prisma migrate status` read ours.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS _prisma_migrations (
  id                  VARCHAR(36)  PRIMARY KEY NOT NULL,
  checksum            VARCHAR(64)  NOT NULL,
  finished_at         TIMESTAMPTZ,
  migration_name      VARCHAR(255) NOT NULL,
  logs                TEXT,
  rolled_back_at      TIMESTAMPTZ,
  started_at          TIMESTAMPTZ  NOT NULL DEFAULT now(),
  applied_steps_count INTEGER      NOT NULL DEFAULT 0
)`;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

/**
 * Applies the pending migrations, each in its own transaction, and records them in
 * `_prisma_migrations` as Prisma does. Processes that start together wait on an advisory lock
 * and then find nothing left to do. Refuses to run when an applied migration's file was edited
 * (schema drift would go unnoticed) or when Prisma recorded an unfinished one.
 *
 * Migrations must be transaction-safe (no `CREATE INDEX CONCURRENTLY`): in exchange, a failing
 * one leaves no trace and can simply be fixed and rerun.
 */
export async function runMigrations(
  urlOrPool: string | Pool,
  options: MigrationOptions = {},
): Promise<MigrationResult> {
  const migrations = listMigrations(options.dir);
  const { client, release } = await connect(urlOrPool);
  let healthy = false;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const result = await applyPending(client, migrations, options);
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    healthy = true;
    return result;
  } finally {
    // A session that failed may still hold the lock: closing it is what releases it for sure.
    await release(!healthy);
  }
}

async function applyPending(
  client: Client | PoolClient,
  migrations: MigrationFile[],
  options: MigrationOptions,
): Promise<MigrationResult> {
  await client.query(CREATE_MIGRATIONS_TABLE);
  const applied = await appliedMigrations(client);
  checkAppliedUnchanged(migrations, applied);
  const result: MigrationResult = { applied: [], alreadyApplied: [] };
  for (const migration of migrations) {
    if (applied.has(migration.name)) {
      result.alreadyApplied.push(migration.name);
      continue;
    }
    const started = Date.now();
    await applyOne(client, migration);
    result.applied.push(migration.name);
    options.onApplied?.(migration.name, Date.now() - started);
  }
  return result;
}

interface Connection {
  client: Client | PoolClient;
  release(destroy: boolean): Promise<void>;
}

async function connect(urlOrPool: string | Pool): Promise<Connection> {
  if (typeof urlOrPool !== 'string') {
    const client = await urlOrPool.connect();
    return { client, release: async (destroy) => client.release(destroy) };
  }
  const client = new Client({ connectionString: urlOrPool, application_name: 'xaalis-migrate' });
  await client.connect();
  return { client, release: () => client.end() };
}

/** Rows Prisma marked rolled back do not count: Prisma reapplies those too. */
async function appliedMigrations(client: Client | PoolClient): Promise<Map<string, AppliedRow>> {
  const { rows } = await client.query<AppliedRow>(
    `SELECT migration_name, checksum, finished_at FROM _prisma_migrations
      WHERE rolled_back_at IS NULL ORDER BY started_at`,
  );
  return new Map(rows.map((row) => [row.migration_name, row]));
}

function checkAppliedUnchanged(
  migrations: MigrationFile[],
  applied: Map<string, AppliedRow>,
): void {
  for (const [name, row] of applied) {
    if (row.finished_at === null) {
      throw new MigrationError(
        `Migration ${name} was started but never finished (recorded by prisma migrate?). Repair the ` +
          `database by hand, then mark it: npx prisma migrate resolve --rolled-back ${name} (or --applied).`,
      );
    }
  }
  for (const migration of migrations) {
    const row = applied.get(migration.name);
    if (row !== undefined && !checksumMatches(migration.sql, row.checksum)) {
      throw new MigrationError(
        `Migration ${migration.name} was edited after it was applied (checksum ${row.checksum} in ` +
          `_prisma_migrations, ${migration.checksum} on disk). Restore the file and put the change ` +
          `in a new migration.`,
      );
    }
  }
}

async function applyOne(client: Client | PoolClient, migration: MigrationFile): Promise<void> {
  await client.query('BEGIN');
  try {
    const id = randomUUID();
    await client.query(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), 0)`,
      [id, migration.checksum, migration.name],
    );
    // No parameters: the simple query protocol runs a multi-statement script as it is.
    await client.query(migration.sql);
    // clock_timestamp(): now() would be the transaction's start, hiding how long it took.
    await client.query(
      `UPDATE _prisma_migrations SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1`,
      [id],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${reason}`);
  }
}
