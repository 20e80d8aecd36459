import { Pool } from 'pg';
import { DomainError, FixedClock } from '@xaalis/kernel';
import { rowsScanned, watchStatements } from '@xaalis/pg-testing';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '@xaalis/testing';
import { backoffMs, jobDone, runAgainAt, type Job, type JobHandler, type JobResult } from './job';
import { JobScheduler, type JobSchedulerOptions } from './job-scheduler';
import { JobsTable } from './jobs-table';
import { scheduleJobs } from './schedule-jobs';

const T0 = new Date('2026-11-28T10:00:00.000Z');
const LEASE_MS = 60_000;

/** A handler of `kind` that records every run and answers `answer(job)`. */
function recording(
  kind: string,
  answer: (job: Job) => JobResult | Promise<JobResult> = () => jobDone,
): JobHandler & { runs: Job[] } {
  const runs: Job[] = [];
  return {
    kind,
    runs,
    async run(job) {
      runs.push(job);
      return answer(job);
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describeWithPostgres('JobScheduler', () => {
  let database: TestDatabase;
  let pool: Pool;
  let clock: FixedClock;

  const scheduler = (handlers: JobHandler[], options: Partial<JobSchedulerOptions> = {}) =>
    new JobScheduler({ pool, clock, leaseMs: LEASE_MS, handlers, ...options });

  const due = (kind: string, count: number, dueAt = T0) =>
    scheduleJobs(
      pool,
      Array.from({ length: count }, (_, n) => ({
        kind,
        reference: `ref_${String(n).padStart(4, '0')}`,
        dueAt,
      })),
    );

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
    clock = new FixedClock(T0);
    await pool.query('DELETE FROM jobs');
  });

  it('runs each due job of its kinds once and deletes it; later jobs wait', async () => {
    const expire = recording('test.expire');
    const settle = recording('test.settle');
    await due('test.expire', 3);
    await due('test.settle', 2);
    await scheduleJobs(pool, [
      { kind: 'test.settle', reference: 'later', dueAt: new Date(T0.getTime() + 1) },
    ]);

    expect(await scheduler([expire, settle]).runDue()).toBe(5);

    expect(expire.runs.map((job) => job.reference)).toEqual(['ref_0000', 'ref_0001', 'ref_0002']);
    expect(settle.runs.map((job) => job.reference).sort()).toEqual(['ref_0000', 'ref_0001']);
    expect(expire.runs[0]).toEqual({
      kind: 'test.expire',
      reference: 'ref_0000',
      attempts: 1,
      dueAt: T0,
    });
    expect((await rows()).map((row) => row.reference)).toEqual(['later']);
  });

  it('leaves alone the kinds it has no handler for: their runner may be another app', async () => {
    await due('test.other', 2);
    const mine = recording('test.mine');

    expect(await scheduler([mine]).runDue()).toBe(0);

    expect((await rows()).map((row) => [row.kind, row.attempts, row.lease])).toEqual([
      ['test.other', 0, 0],
      ['test.other', 0, 0],
    ]);
    expect(() => scheduler([mine, recording('test.mine')])).toThrow(/two handlers/);
  });

  it('two runners on one table never run one job, each job runs once', async () => {
    await due('test.shared', 600);
    const runs = new Map<string, number>();
    let running = 0;
    let overlap = false;
    const handler = (kind: string): JobHandler => ({
      kind,
      async run(job) {
        running += 1;
        if ((runs.get(job.reference) ?? 0) > 0) overlap = true;
        runs.set(job.reference, (runs.get(job.reference) ?? 0) + 1);
        await tick();
        running -= 1;
        return jobDone;
      },
    });
    const first = scheduler([handler('test.shared')], { leaseBatch: 50, concurrency: 8 });
    const second = scheduler([handler('test.shared')], { leaseBatch: 50, concurrency: 8 });

    const [a, b] = await Promise.all([first.runDue(), second.runDue()]);

    expect(a + b).toBe(600);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    expect(overlap).toBe(false);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(runs.size).toBe(600);
    expect(running).toBe(0);
    expect(await rows()).toEqual([]);
  });

  it('a job whose runner died runs again once its lease is over, on the clock', async () => {
    await due('test.crash', 1);
    // The runner that died: it leased the job and never wrote an outcome.
    const [crashed] = await new JobsTable(pool).lease({
      kinds: ['test.crash'],
      now: clock.now(),
      leaseMs: LEASE_MS,
      limit: 10,
    });
    expect(crashed).toMatchObject({ reference: 'ref_0000', attempts: 1 });
    const handler = recording('test.crash');
    const survivor = scheduler([handler]);

    clock.advance(LEASE_MS - 1);
    expect(await survivor.runDue()).toBe(0);
    clock.advance(1);
    expect(await survivor.runDue()).toBe(1);

    expect(handler.runs).toEqual([
      {
        kind: 'test.crash',
        reference: 'ref_0000',
        attempts: 2,
        dueAt: new Date(T0.getTime() + LEASE_MS),
      },
    ]);
    expect(await rows()).toEqual([]);
  });

  it('retries a job that throws after a doubling backoff, keeping its error', async () => {
    await due('test.flaky', 1);
    let failures = 2;
    const handler = recording('test.flaky', () => {
      if (failures-- > 0) throw new DomainError('unavailable', 'provider down');
      return jobDone;
    });
    const runner = scheduler([handler]);

    expect(await runner.runDue()).toBe(1);
    expect(await rows()).toEqual([
      {
        kind: 'test.flaky',
        reference: 'ref_0000',
        due_at: new Date(T0.getTime() + backoffMs(1)),
        attempts: 1,
        last_error: 'unavailable',
        lease: 1,
      },
    ]);
    clock.advance(backoffMs(1) - 1);
    expect(await runner.runDue()).toBe(0);
    clock.advance(1);
    expect(await runner.runDue()).toBe(1);
    const [second] = await rows();
    expect(second).toMatchObject({ attempts: 2, last_error: 'unavailable' });
    expect(second.due_at).toEqual(new Date(clock.now().getTime() + backoffMs(2)));
    expect(backoffMs(2)).toBe(2 * backoffMs(1));

    clock.advance(backoffMs(2));
    expect(await runner.runDue()).toBe(1);
    expect(handler.runs.map((job) => job.attempts)).toEqual([1, 2, 3]);
    expect(await rows()).toEqual([]);
  });

  it('runs a job again at the time its handler asks', async () => {
    await due('test.wait', 1);
    const later = new Date(T0.getTime() + 30_000);
    const handler = recording('test.wait', (job) =>
      job.attempts === 1 ? runAgainAt(later) : jobDone,
    );
    const runner = scheduler([handler]);

    await runner.runDue();
    expect(await rows()).toMatchObject([{ due_at: later, attempts: 1, last_error: null }]);
    clock.set(later);
    expect(await runner.runDue()).toBe(1);
    expect(await rows()).toEqual([]);
  });

  it('keeps a job rescheduled while it ran: the outcome of the older schedule is dropped', async () => {
    await due('test.moved', 2);
    const later = new Date(T0.getTime() + 3_600_000);
    const handler = recording('test.moved', async (job) => {
      // The facts changed during the run: the projection schedules the job anew.
      await scheduleJobs(pool, [{ kind: job.kind, reference: job.reference, dueAt: later }]);
      return job.reference === 'ref_0000'
        ? jobDone
        : runAgainAt(new Date(T0.getTime() + 5_000), 'x');
    });

    expect(await scheduler([handler]).runDue()).toBe(2);

    expect(await rows()).toEqual(
      ['ref_0000', 'ref_0001'].map((reference) => ({
        kind: 'test.moved',
        reference,
        due_at: later,
        attempts: 0,
        last_error: null,
        lease: 2,
      })),
    );
  });

  it('an outcome that could not be written leaves its job leased: it runs again after the lease', async () => {
    const watch = watchStatements(pool, (name) => name.startsWith('jobs_'));
    await due('test.many', 400);
    const later = new Date(T0.getTime() + 10 * LEASE_MS);
    const handler = recording('test.many', (job) =>
      job.reference < 'ref_0200' ? jobDone : runAgainAt(later),
    );
    const runner = new JobScheduler({
      pool: watch.pool,
      clock,
      leaseMs: LEASE_MS,
      handlers: [handler],
      leaseBatch: 400,
      concurrency: 400,
    });

    // Lost before it was sent: a lone outcome's job stays leased; a batch's are sent again alone.
    watch.failNext('jobs_complete', new Error('connection lost'));
    expect(await runner.runDue()).toBe(400);
    clock.advance(LEASE_MS);
    await runner.runDue();

    expect(watch.statements.filter((name) => name === 'jobs_complete').length).toBeLessThan(400);
    const left = await rows();
    expect(left).toHaveLength(200);
    expect(left.every((row) => row.reference >= 'ref_0200' && +row.due_at === +later)).toBe(true);
  });

  it('completes a large batch in a handful of statements', async () => {
    const watch = watchStatements(pool, (name) => name.startsWith('jobs_'));
    await due('test.bulk', 1_000);
    const runner = new JobScheduler({
      pool: watch.pool,
      clock,
      leaseMs: LEASE_MS,
      handlers: [recording('test.bulk')],
    });

    expect(await runner.runDue()).toBe(1_000);

    expect(watch.statements.filter((name) => name === 'jobs_complete').length).toBeLessThan(100);
    expect(await rows()).toEqual([]);
  });

  it('finds the jobs a batch of outcomes writes by their key, however much the table grew since its first runs', async () => {
    // One session, as a pooled connection lives: a prepared statement's plan, made on the first
    // runs while the table was nearly empty, joined the batch to a scan of the whole table.
    const session = new Pool({ connectionString: database.url, max: 1 });
    try {
      const table = new JobsTable(session);
      const later = new Date(T0.getTime() + LEASE_MS);
      const runAndReschedule = async () => {
        await due('test.plan', 3);
        const leased = await table.lease({ kinds: ['test.plan'], now: T0, leaseMs: 1, limit: 3 });
        expect(leased).toHaveLength(3);
        await Promise.all(
          leased.map((job) => table.complete({ job, dueAt: later, error: 'again' })),
        );
        await pool.query(`DELETE FROM jobs WHERE kind = 'test.plan' AND reference = ANY($1)`, [
          leased.map((job) => job.reference),
        ]);
      };
      for (let run = 0; run < 6; run += 1) await runAndReschedule();
      await pool.query(
        `INSERT INTO jobs (kind, reference, due_at)
         SELECT 'test.grown', 'ref_' || n, $1 FROM generate_series(1, 20000) AS n`,
        [later],
      );
      const before = await rowsScanned(session, 'jobs');

      await runAndReschedule();

      expect((await rowsScanned(session, 'jobs')) - before).toBeLessThan(100);
    } finally {
      await session.end();
    }
  });

  it('started, it runs jobs as they come due; stopped, it hands back jobs it did not start', async () => {
    await due('test.loop', 3);
    let release: () => void = () => undefined;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const handler = recording('test.loop', async () => {
      await blocked;
      return jobDone;
    });
    const runner = scheduler([handler], { concurrency: 1, pollMs: 10 });

    runner.start();
    while (handler.runs.length === 0) await tick();
    const stopped = runner.stop();
    release();
    await stopped;

    expect(handler.runs).toHaveLength(1);
    // The two never started are due as they were, their attempt not counted.
    expect((await rows()).map((row) => [row.reference, row.due_at, row.attempts])).toEqual([
      ['ref_0001', T0, 0],
      ['ref_0002', T0, 0],
    ]);

    const again = recording('test.loop');
    const next = scheduler([again], { pollMs: 10 });
    next.start();
    await scheduleJobs(pool, [{ kind: 'test.loop', reference: 'new', dueAt: T0 }]);
    next.wake();
    while ((await rows()).length > 0) await tick();
    await next.stop();
    expect(again.runs.map((job) => job.reference).sort()).toEqual(['new', 'ref_0001', 'ref_0002']);
  });
});
