import type { Clock } from '@xaalis/kernel';

/** A leased row of `jobs`, as its handler sees it. */
export interface Job {
  /** Names the handler, e.g. `payment.expire`. */
  kind: string;
  /** What the job is about, unique within its kind, e.g. a payment id. */
  reference: string;
  /** Runs so far, this one included: 1 on the first run; the backoff grows with it. */
  attempts: number;
  /** When the job came due (before this lease pushed it ahead). */
  dueAt: Date;
}

/**
 * What became of a run: done (the row is deleted), to run again at a time, or to retry after the
 * backoff of its attempts. A handler that throws is retried after the backoff as well, with the
 * error's code or message kept in `last_error`.
 */
export type JobResult =
  | { outcome: 'done' }
  | { outcome: 'again'; at: Date; error?: string }
  | { outcome: 'retry'; error?: string };

export const jobDone: JobResult = { outcome: 'done' };
export const runAgainAt = (at: Date, error?: string): JobResult => ({
  outcome: 'again',
  at,
  error,
});
export const retryLater = (error?: string): JobResult => ({ outcome: 'retry', error });

/**
 * The code of one kind of job. Every run must be safe to repeat: a runner that dies after the
 * work but before the row is deleted leaves the job to run again after its lease.
 */
export interface JobHandler {
  readonly kind: string;
  run(job: Job): Promise<JobResult>;
}

/** 2 s, 4 s, 8 s… after the `attempts`-th run, at most 5 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(1000 * 2 ** Math.min(attempts, 20), 300_000);
}

/** When a job's next run is due after `result`; null when it is done. */
export function nextDueAt(result: JobResult, job: Job, clock: Clock): Date | null {
  switch (result.outcome) {
    case 'done':
      return null;
    case 'again':
      return result.at;
    case 'retry':
      return new Date(clock.now().getTime() + backoffMs(job.attempts));
  }
}
