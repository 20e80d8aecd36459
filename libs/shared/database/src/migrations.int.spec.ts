import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, describeWithPostgres } from './testing/test-postgres';
import type { ThrowawayDatabase as TestDatabase } from '@xaalis/pg-testing';
import { checksumOf, DEFAULT_MIGRATIONS_DIR, listMigrations, runMigrations } from './migrations';

function migrationsFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'xaalis-migrations-'));
  for (const [name, sql] of Object.entries(files)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

const FIRST = 'CREATE TABLE widgets (id int PRIMARY KEY);\nINSERT INTO widgets VALUES (1), (2);\n';
const SECOND = 'ALTER TABLE widgets ADD COLUMN name text;\n';

describeWithPostgres('runMigrations', () => {
  let db: TestDatabase;
  let dir: string;

  beforeEach(async () => {
    db = await createTestDatabase({ migrate: false });
    dir = migrationsFolder({
      '20260101000000_widgets': FIRST,
      '20260102000000_widget_names': SECOND,
    });
  });

  afterEach(async () => {
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies pending migrations in name order and records them as Prisma does', async () => {
    const result = await runMigrations(db.url, { dir });

    expect(result).toEqual({
      applied: ['20260101000000_widgets', '20260102000000_widget_names'],
      alreadyApplied: [],
    });
    const { rows } = await db.pool.query(
      `SELECT id, checksum, migration_name, logs, rolled_back_at, applied_steps_count,
              finished_at >= started_at AS finished_after_start
         FROM _prisma_migrations ORDER BY migration_name`,
    );
    expect(rows).toEqual([
      expect.objectContaining({
        checksum: checksumOf(FIRST),
        migration_name: '20260101000000_widgets',
        logs: null,
        rolled_back_at: null,
        applied_steps_count: 1,
        finished_after_start: true,
      }),
      expect.objectContaining({
        checksum: checksumOf(SECOND),
        migration_name: '20260102000000_widget_names',
      }),
    ]);
    expect(rows[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(checksumOf(FIRST)).toMatch(/^[0-9a-f]{64}$/);
    const widgets = await db.pool.query('SELECT id, name FROM widgets ORDER BY id');
    expect(widgets.rows).toEqual([
      { id: 1, name: null },
      { id: 2, name: null },
    ]);
  });

  it('does nothing the second time', async () => {
    await runMigrations(db.pool, { dir });
    const again = await runMigrations(db.pool, { dir });

    expect(again).toEqual({
      applied: [],
      alreadyApplied: ['20260101000000_widgets', '20260102000000_widget_names'],
    });
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM _prisma_migrations');
    expect(rows[0].n).toBe(2);
  });

  it('refuses to run when an applied migration was edited', async () => {
    await runMigrations(db.pool, { dir });
    writeFileSync(join(dir, '20260101000000_widgets', 'migration.sql'), `${FIRST}-- sneaky edit\n`);
    mkdirSync(join(dir, '20260103000000_more'));
    writeFileSync(
      join(dir, '20260103000000_more', 'migration.sql'),
      'CREATE TABLE more (id int);\n',
    );

    await expect(runMigrations(db.pool, { dir })).rejects.toThrow(
      /Migration 20260101000000_widgets was edited after it was applied/,
    );
    const { rows } = await db.pool.query(`SELECT to_regclass('more') AS more`);
    expect(rows[0].more).toBeNull();
  });

  it('accepts a file whose line endings git changed', async () => {
    await runMigrations(db.pool, { dir });
    writeFileSync(
      join(dir, '20260101000000_widgets', 'migration.sql'),
      FIRST.replace(/\n/g, '\r\n'),
    );

    await expect(runMigrations(db.pool, { dir })).resolves.toEqual(
      expect.objectContaining({ applied: [] }),
    );
  });

  it('rolls a failing migration back whole and records nothing', async () => {
    writeFileSync(
      join(dir, '20260102000000_widget_names', 'migration.sql'),
      `${SECOND}SELECT no_such_function();\n`,
    );

    await expect(runMigrations(db.pool, { dir })).rejects.toThrow(
      /Migration 20260102000000_widget_names failed and was rolled back: function no_such_function\(\) does not exist/,
    );
    const columns = await db.pool.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'widgets' ORDER BY column_name`,
    );
    expect(columns.rows.map((row) => row.column_name)).toEqual(['id']);
    const recorded = await db.pool.query('SELECT migration_name FROM _prisma_migrations');
    expect(recorded.rows).toEqual([{ migration_name: '20260101000000_widgets' }]);
  });

  it('lets concurrent runners apply each migration exactly once', async () => {
    const slow = migrationsFolder({
      '20260101000000_widgets': FIRST,
      '20260101500000_slow': 'SELECT pg_sleep(0.2);\nCREATE TABLE slow (id int);\n',
      '20260102000000_widget_names': SECOND,
    });
    try {
      const results = await Promise.all(
        [1, 2, 3, 4].map(() => runMigrations(db.url, { dir: slow })),
      );

      const applied = results.flatMap((result) => result.applied).sort();
      expect(applied).toEqual([
        '20260101000000_widgets',
        '20260101500000_slow',
        '20260102000000_widget_names',
      ]);
      const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM _prisma_migrations');
      expect(rows[0].n).toBe(3);
    } finally {
      rmSync(slow, { recursive: true, force: true });
    }
  });

  it('refuses a migration Prisma left unfinished', async () => {
    await runMigrations(db.pool, { dir });
    await db.pool.query(
      `UPDATE _prisma_migrations SET finished_at = NULL WHERE migration_name = '20260102000000_widget_names'`,
    );

    await expect(runMigrations(db.pool, { dir })).rejects.toThrow(/started but never finished/);
  });

  it('applies the repository migrations to an empty database', async () => {
    const names = listMigrations(DEFAULT_MIGRATIONS_DIR).map((migration) => migration.name);
    const result = await runMigrations(db.pool, { dir: DEFAULT_MIGRATIONS_DIR });

    expect(result.applied).toEqual(names);
    expect(names).toContain('20261122000200_projections');
    const { rows } = await db.pool.query(
      `SELECT to_regclass('projection_checkpoints') IS NOT NULL AS exists`,
    );
    expect(rows[0].exists).toBe(true);
  });
});
