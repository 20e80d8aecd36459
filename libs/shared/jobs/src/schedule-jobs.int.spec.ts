import type { Pool } from 'pg';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import { JobsTable } from './jobs-table';
import { deleteJobsOfKinds, scheduleJobs } from './schedule-jobs';

const T0 = new Date('2026-11-28T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describeWithPostgres('scheduleJobs', () => {
  let database: TestDatabase;
  let pool: Pool;

  const rows = async () =>
    (
      await pool.query(
        `SELECT kind, reference, due_at, attempts, last_error, lease
           FROM jobs ORDER BY kind, reference`,
      )
    ).rows;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = database.pool;
  });

  afterAll(async () => {
    await database?.drop();
  });

  beforeEach(async () => {
    await pool.query('DELETE FROM jobs');
  });

  it('inserts due jobs, takes the last change of a job named twice, deletes cancelled ones', async () => {
    await scheduleJobs(pool, [
      { kind: 'test.a', reference: '1', dueAt: at(1) },
      { kind: 'test.a', reference: '2', dueAt: at(2) },
      { kind: 'test.b', reference: '1', dueAt: at(3) },
    ]);
    await scheduleJobs(pool, [
      { kind: 'test.a', reference: '1', dueAt: at(10) },
      { kind: 'test.a', reference: '1', dueAt: null },
      { kind: 'test.a', reference: '2', dueAt: null },
      { kind: 'test.a', reference: '2', dueAt: at(20) },
    ]);

    expect(await rows()).toEqual([
      { kind: 'test.a', reference: '2', due_at: at(20), attempts: 0, last_error: null, lease: 1 },
      { kind: 'test.b', reference: '1', due_at: at(3), attempts: 0, last_error: null, lease: 0 },
    ]);
  });

  it('rescheduling starts the attempts again and moves the lease on', async () => {
    await scheduleJobs(pool, [{ kind: 'test.a', reference: '1', dueAt: T0 }]);
    const [leased] = await new JobsTable(pool).lease({
      kinds: ['test.a'],
      now: T0,
      leaseMs: 60_000,
      limit: 1,
    });
    await pool.query(`UPDATE jobs SET last_error = 'boom'`);

    await scheduleJobs(pool, [{ kind: 'test.a', reference: '1', dueAt: at(5) }]);

    expect(await rows()).toEqual([
      {
        kind: 'test.a',
        reference: '1',
        due_at: at(5),
        attempts: 0,
        last_error: null,
        lease: leased!.lease + 1,
      },
    ]);
  });

  it('writes in the caller’s transaction: a rollback leaves nothing', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await scheduleJobs(client, [{ kind: 'test.a', reference: '1', dueAt: T0 }]);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    expect(await rows()).toEqual([]);
  });

  it('deletes every job of some kinds, and no other', async () => {
    await scheduleJobs(pool, [
      { kind: 'test.a', reference: '1', dueAt: T0 },
      { kind: 'test.b', reference: '1', dueAt: T0 },
      { kind: 'test.c', reference: '1', dueAt: T0 },
    ]);
    await deleteJobsOfKinds(pool, ['test.a', 'test.b']);
    expect((await rows()).map((row) => row.kind)).toEqual(['test.c']);
  });
});
