import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { JobScheduler, jobDone, type JobHandler } from '@xaalis/jobs';
import { FixedClock, systemClock } from '@xaalis/kernel';
import { issueTestSecretKey, startEmbeddedStack } from './gateway';
import { httpGet } from './http-load';
import {
  measureDrain,
  measureInterleaved,
  percentile,
  untilIdle,
  type Backlog,
  type Measurement,
} from './measure';
import { createPayment } from './payments';
import type { Judged } from './report';

/** Issue 18: jobs due at one moment, as after a burst of creates 30 minutes earlier. */
export const DUE_JOBS = 100_000;
const KIND = 'bench.noop';
/** As the service's lease; the no-op runs end far sooner. */
const LEASE_MS = 60_000;
/** Past every payment's expiry (30 minutes after its creation). */
const PAST_EXPIRY_MS = 31 * 60_000;
/** A drain slower than this is reported as it stands rather than waited for. */
const DRAIN_LIMIT_MS = 10 * 60_000;

interface Settings {
  durationMs: number;
  rounds: number;
  concurrency: number;
}

/**
 * How fast due jobs are fired, against how fast payments are created (each create schedules one
 * expiry): below 1× expiry falls behind whatever the load lasts. Two lines:
 *
 * - the scheduler itself, judged ≥ 1× the payments line's create rate (or the one measured here):
 *   `DUE_JOBS` rows due at once, leased, run and deleted by one `JobScheduler` with the service's
 *   defaults on a pool the service's size, each run one primary-key read (what a real job starts
 *   with);
 * - real expiries, shown beside the create rate of the same service, not judged: every open
 *   payment of the database (its create line's, and the payments line's when it ran), all due at
 *   once when the bench moves the service's clock past their expiry, drained by the service's own
 *   scheduler. Each is a decider command (read, append), its projection and its integration
 *   event: what issue 18 saw fall behind.
 */
export async function jobPairs(
  pool: Pool,
  databaseUrl: string,
  settings: Settings,
  log: (line: string) => void,
  create: Measurement | undefined,
): Promise<Judged[]> {
  const expiry = await expiryPair(pool, databaseUrl, settings, log);
  log(`${DUE_JOBS.toLocaleString('en-US')} jobs due at once`);
  const fired = await fireDueJobs(pool);
  return [
    { baseline: create ?? expiry.baseline, subject: fired, target: { kind: 'ratio', min: 1 } },
    expiry,
  ];
}

/** Creates payments on a service with a clock of its own, then moves it past their expiry. */
async function expiryPair(
  pool: Pool,
  databaseUrl: string,
  settings: Settings,
  log: (line: string) => void,
): Promise<Judged> {
  log('booting the embedded stack on a bench-driven clock for payment expiry');
  const clock = new FixedClock(new Date());
  const stack = await startEmbeddedStack(databaseUrl, {}, clock);
  try {
    return await createThenExpire(pool, stack.url, clock, settings, log);
  } finally {
    await stack.close();
  }
}

async function createThenExpire(
  pool: Pool,
  baseUrl: string,
  clock: FixedClock,
  settings: Settings,
  log: (line: string) => void,
): Promise<Judged> {
  const secretKey = await issueTestSecretKey(baseUrl);
  const { durationMs, concurrency } = settings;
  const create = createPayment(baseUrl, secretKey, {
    durationMs,
    concurrency,
    idempotencyKey: false,
  });
  log(`payment create at ${concurrency} concurrent clients, the service's clock held still`);
  // Warmed up as the service lines are: the rates compared are steady-state rates.
  const [created] = await measureInterleaved(
    [{ ...create, options: { ...create.options, warmupMs: 5_000 } }],
    settings.rounds,
  );
  // A list brings the read model, and so the expiry jobs, up to date.
  await httpGet(`${baseUrl}/v1/payments?limit=1`, { authorization: `Bearer ${secretKey}` });
  const { left: due } = await expiryJobs(pool);
  await untilIdle();
  log(`${due.toLocaleString('en-US')} payments expiring at once`);

  const { measurement: expired, left } = await measureDrain(
    `payment expiries fired (${due.toLocaleString('en-US')} due at once)`,
    due,
    () => clock.advance(PAST_EXPIRY_MS),
    () => expiryJobs(pool),
    DRAIN_LIMIT_MS,
  );
  // A failed run is retried after a backoff the held clock never reaches.
  if (left > 0) log(`${left} expiries not done after ${expired.seconds.toFixed(1)} s`);
  return { baseline: created!, subject: expired, target: { kind: 'none' } };
}

/** Expiry jobs left, and of those the ones not failed yet (still due or running). */
const expiryJobs = async (pool: Pool): Promise<Backlog> =>
  (
    await pool.query<Backlog>(
      `SELECT count(*)::int AS left, (count(*) FILTER (WHERE last_error IS NULL))::int AS running
         FROM jobs WHERE kind = 'payment.expire'`,
    )
  ).rows[0]!;

/** Inserts the due jobs, then runs a scheduler until every one has run and been deleted. */
async function fireDueJobs(pool: Pool): Promise<Measurement> {
  await pool.query(
    `INSERT INTO jobs (kind, reference, due_at)
     SELECT $1, 'job_' || lpad(n::text, 6, '0'), now() - interval '1 second'
       FROM generate_series(1, $2::int) AS n`,
    [KIND, DUE_JOBS],
  );
  await pool.query('ANALYZE jobs');
  await untilIdle();

  /** Each job's delay from the start to its run: how late a job due at the start ran. */
  const delays: number[] = [];
  let allRan: () => void = () => undefined;
  const ran = new Promise<void>((resolve) => (allRan = resolve));
  let start = 0;
  const handler: JobHandler = {
    kind: KIND,
    async run(job) {
      delays.push(performance.now() - start);
      await pool.query({
        name: 'bench_job_read',
        text: 'SELECT attempts FROM jobs WHERE kind = $1 AND reference = $2',
        values: [job.kind, job.reference],
      });
      if (delays.length === DUE_JOBS) allRan();
      return jobDone;
    },
  };
  const scheduler = new JobScheduler({
    pool,
    clock: systemClock,
    leaseMs: LEASE_MS,
    handlers: [handler],
  });

  const cpu = process.cpuUsage();
  start = performance.now();
  scheduler.start();
  await ran;
  // Stopping waits for the last outcomes to be written: the rows are gone when it returns.
  await scheduler.stop();
  const seconds = (performance.now() - start) / 1000;
  const { user, system } = process.cpuUsage(cpu);

  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM jobs WHERE kind = $1',
    [KIND],
  );
  if (rows[0]!.n !== 0) throw new Error(`${rows[0]!.n} bench jobs left after the run`);
  delays.sort((a, b) => a - b);
  return {
    name: `jobs fired (${DUE_JOBS.toLocaleString('en-US')} due at once)`,
    rate: DUE_JOBS / seconds,
    p50Ms: percentile(delays, 50),
    p99Ms: percentile(delays, 99),
    operations: DUE_JOBS,
    seconds,
    cpuMsPerOp: (user + system) / 1000 / DUE_JOBS,
  };
}
