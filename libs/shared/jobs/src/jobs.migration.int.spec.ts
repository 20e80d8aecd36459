import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MIGRATIONS_DIR, runMigrations } from '@xaalis/database';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';

const JOBS_MIGRATION = '20261128000100_jobs';

describeWithPostgres('migration 20261128000100_jobs', () => {
  let database: TestDatabase;
  let before: string;

  beforeAll(async () => {
    // The migrations up to the one before this: a database as payment_jobs left it.
    before = mkdtempSync(join(tmpdir(), 'xaalis-jobs-migration-'));
    for (const name of readdirSync(DEFAULT_MIGRATIONS_DIR)) {
      if (name < JOBS_MIGRATION)
        cpSync(join(DEFAULT_MIGRATIONS_DIR, name), join(before, name), { recursive: true });
    }
    database = await createTestDatabase({ migrationsDir: before });
  });

  afterAll(async () => {
    await database?.drop();
    rmSync(before, { recursive: true, force: true });
  });

  it('moves the payment jobs into jobs, under their new kinds, and drops payment_jobs', async () => {
    const due = new Date('2026-11-28T09:00:00.000Z');
    await database.pool.query(
      `INSERT INTO payment_jobs (payment_id, kind, due_at, attempts, last_error) VALUES
         ('pay_1', 'expire', $1, 0, NULL),
         ('pay_1', 'reconcile', $1, 3, 'unavailable'),
         ('pay_2', 'refund:re_9', $1, 1, NULL),
         ('pay_3', 'unheard_of', $1, 0, NULL)`,
      [due],
    );

    await runMigrations(database.pool);

    const { rows } = await database.pool.query(
      'SELECT kind, reference, due_at, attempts, last_error, lease FROM jobs ORDER BY kind, reference',
    );
    expect(rows).toEqual([
      {
        kind: 'payment.expire',
        reference: 'pay_1',
        due_at: due,
        attempts: 0,
        last_error: null,
        lease: 0,
      },
      {
        kind: 'payment.reconcile',
        reference: 'pay_1',
        due_at: due,
        attempts: 3,
        last_error: 'unavailable',
        lease: 0,
      },
      {
        kind: 'payment.refund',
        reference: 'pay_2:re_9',
        due_at: due,
        attempts: 1,
        last_error: null,
        lease: 0,
      },
    ]);
    const { rows: tables } = await database.pool.query(
      "SELECT to_regclass('payment_jobs') AS payment_jobs",
    );
    expect(tables).toEqual([{ payment_jobs: null }]);
  });
});
