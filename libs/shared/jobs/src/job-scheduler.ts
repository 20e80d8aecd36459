import type { Pool } from 'pg';
import { DomainError, type Clock } from '@xaalis/kernel';
import { nextDueAt, type JobHandler, type JobResult } from './job';
import { JobsTable, type LeasedJob } from './jobs-table';
import { WorkLoop, type PassResult } from './work-loop';

export interface JobSchedulerOptions {
  pool: Pool;
  /** The application clock: what is due, and when a job runs again, is read on it. */
  clock: Clock;
  /** How long a leased job is this runner's alone; longer than any one run may take. */
  leaseMs: number;
  /** One per kind; this runner leases jobs of these kinds only. */
  handlers: JobHandler[];
  /** Rows per lease statement. Default 256. */
  leaseBatch?: number;
  /** Runs at once. Default 64. */
  concurrency?: number;
  /** Longest sleep when nothing is due. Default 200 ms. */
  pollMs?: number;
  logger?: { warn(message: string): void; error(message: string): void };
}

/**
 * Runs due jobs of the `jobs` table. Rows are leased in batches (one statement for hundreds:
 * expiry must keep up with payment creation at its peak), run `concurrency` at a time as slots
 * come free (a slow provider call holds one slot, not the batch), and their outcomes written in
 * batched statements. The next batch is leased while the last `concurrency` jobs of one are
 * still waiting, so a leased job waits for at most a few runs before its own: the lease must
 * cover that too.
 *
 * Any number of schedulers, in any number of processes, may run on one database (see
 * `JobsTable`). Each leases only the kinds it has handlers for: other kinds may be another app's,
 * so a kind retired from the code has its rows deleted by a migration. Start it with `start()`,
 * or drive it from a test with `runDue()` after moving the clock.
 */
export class JobScheduler {
  private readonly table: JobsTable;
  private readonly clock: Clock;
  private readonly leaseMs: number;
  private readonly handlers: Map<string, JobHandler>;
  private readonly kinds: string[];
  private readonly leaseBatch: number;
  private readonly concurrency: number;
  private readonly logger: NonNullable<JobSchedulerOptions['logger']>;
  private readonly loop: WorkLoop;
  /** Leased, waiting for a slot. */
  private waiting: LeasedJob[] = [];
  /** Started and not yet written back. */
  private readonly inFlight = new Set<Promise<void>>();
  private running = 0;
  private stopping = false;

  constructor(options: JobSchedulerOptions) {
    this.table = new JobsTable(options.pool);
    this.clock = options.clock;
    this.leaseMs = options.leaseMs;
    this.handlers = new Map();
    for (const handler of options.handlers) {
      if (this.handlers.has(handler.kind))
        throw new Error(`two handlers of job kind ${handler.kind}`);
      this.handlers.set(handler.kind, handler);
    }
    this.kinds = [...this.handlers.keys()];
    this.leaseBatch = options.leaseBatch ?? 256;
    this.concurrency = options.concurrency ?? 64;
    this.logger = options.logger ?? { warn: () => undefined, error: () => undefined };
    this.loop = new WorkLoop({
      pass: () => this.pass(),
      pollMs: options.pollMs ?? 200,
      onError: (error) => this.logger.error(`jobs: ${error.message}`),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Stops leasing, hands back jobs not started, and waits for those running. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
    const unstarted = this.waiting;
    this.waiting = [];
    await this.table.release(unstarted);
    await this.settled();
    this.stopping = false;
  }

  /** Look for due jobs now rather than at the next poll. */
  wake(): void {
    this.loop.wake();
  }

  /** Runs every job due now, until none is left, and waits for their outcomes; for tests. */
  async runDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const leased = await this.leaseAndStart();
      total += leased;
      if (leased === 0) break;
    }
    await this.settled();
    return total;
  }

  private async pass(): Promise<PassResult> {
    // Enough in hand: the start that takes the queue below a slot's worth wakes the loop.
    if (this.waiting.length >= this.concurrency) return { idle: true };
    const leased = await this.leaseAndStart();
    return { idle: leased < this.leaseBatch };
  }

  private async leaseAndStart(): Promise<number> {
    if (this.kinds.length === 0) return 0;
    const jobs = await this.table.lease({
      kinds: this.kinds,
      now: this.clock.now(),
      leaseMs: this.leaseMs,
      limit: this.leaseBatch,
    });
    this.waiting.push(...jobs);
    this.startWaiting();
    return jobs.length;
  }

  private startWaiting(): void {
    while (!this.stopping && this.running < this.concurrency && this.waiting.length > 0) {
      this.launch(this.waiting.shift()!);
    }
  }

  private launch(job: LeasedJob): void {
    this.running += 1;
    const run = this.execute(job).finally(() => {
      this.running -= 1;
      this.inFlight.delete(run);
      const full = this.waiting.length >= this.concurrency;
      this.startWaiting();
      // Room for another lease: the loop sleeps until then (see `pass`).
      if (full && this.waiting.length < this.concurrency) this.loop.wake();
    });
    this.inFlight.add(run);
  }

  private async execute(job: LeasedJob): Promise<void> {
    let result: JobResult;
    let error: string | null = null;
    try {
      const { kind, reference, attempts, dueAt } = job;
      result = await this.handlers.get(kind)!.run({ kind, reference, attempts, dueAt });
      error = result.outcome === 'done' ? null : (result.error ?? null);
    } catch (thrown) {
      error = thrown instanceof DomainError ? thrown.code : (thrown as Error).message;
      this.logger.warn(`${job.kind} ${job.reference} failed (attempt ${job.attempts}): ${error}`);
      result = { outcome: 'retry', error };
    }
    try {
      await this.table.complete({ job, dueAt: nextDueAt(result, job, this.clock), error });
    } catch (thrown) {
      // The row stays leased and comes due again when the lease ends.
      this.logger.error(
        `${job.kind} ${job.reference}: outcome not written: ${(thrown as Error).message}`,
      );
    }
  }

  /** Until nothing is running or waiting. */
  private async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}
