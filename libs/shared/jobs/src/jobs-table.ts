import type { Pool } from 'pg';
import { StatementBatcher } from '@xaalis/batching';
import type { Job } from './job';

/** A job this runner holds: `lease` fences every write of its outcome. */
export interface LeasedJob extends Job {
  lease: number;
}

/** A finished run's word on its row: deleted (`dueAt: null`) or due again. */
export interface Completion {
  job: LeasedJob;
  dueAt: Date | null;
  error: string | null;
}

/** Rows per completion statement: 500 stay far below a statement's limits. */
const MAX_COMPLETIONS = 500;

/**
 * The SQL of the `jobs` table as runners use it. A lease takes due rows with FOR UPDATE SKIP
 * LOCKED and pushes them `leaseMs` ahead, so runners in any number of processes never take one
 * row together, and a runner that dies mid-run only delays its jobs by the lease. Each lease bumps
 * the row's `lease`; an outcome is written only while the row still holds the lease it was run
 * under: a job rescheduled meanwhile (which bumps it too) or leased again by another runner after
 * this one's lease ran out is left as it is.
 */
export class JobsTable {
  /**
   * Outcomes go through one lane (group commit): a lease's jobs finish at about the same time,
   * and one DELETE for all of them costs what one costs. An outcome written twice (a batch sent
   * again alone after its answer was lost) finds its row gone or already written: the same.
   */
  private readonly completions: StatementBatcher<Completion, void>;

  constructor(private readonly pool: Pool) {
    this.completions = new StatementBatcher({
      alone: (completion) => this.write([completion]).then(() => undefined),
      together: (batch) => this.write(batch).then(() => batch.map(() => undefined)),
      maxBatch: MAX_COMPLETIONS,
    });
  }

  /** Up to `limit` rows of `kinds` due at `now`, oldest first, leased until `now + leaseMs`. */
  async lease(input: {
    kinds: string[];
    now: Date;
    leaseMs: number;
    limit: number;
  }): Promise<LeasedJob[]> {
    const { rows } = await this.pool.query<{
      kind: string;
      reference: string;
      attempts: number;
      lease: number;
      due_at: Date;
    }>({
      name: 'jobs_lease',
      text: `UPDATE jobs j
          SET due_at = $3, attempts = j.attempts + 1, lease = j.lease + 1
         FROM (SELECT kind, reference, due_at FROM jobs
                WHERE due_at <= $2 AND kind = ANY($1::text[])
                ORDER BY due_at
                LIMIT $4
                FOR UPDATE SKIP LOCKED) due
        WHERE j.kind = due.kind AND j.reference = due.reference
        RETURNING j.kind, j.reference, j.attempts, j.lease, due.due_at`,
      values: [input.kinds, input.now, new Date(input.now.getTime() + input.leaseMs), input.limit],
    });
    return rows.map((row) => ({
      kind: row.kind,
      reference: row.reference,
      attempts: row.attempts,
      lease: row.lease,
      dueAt: row.due_at,
    }));
  }

  /** Writes a run's outcome, batched with the others finishing meanwhile. */
  complete(completion: Completion): Promise<void> {
    return this.completions.submit(completion);
  }

  /**
   * Hands back leased jobs that were never started (a runner shutting down): due again when they
   * were, their attempt not counted. Planned on each run, as `write` says.
   */
  async release(jobs: LeasedJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.pool.query({
      text: `/* jobs_release */ UPDATE jobs j SET due_at = r.due_at, attempts = j.attempts - 1
         FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[])
           AS r(kind, reference, lease, due_at)
        WHERE j.kind = r.kind AND j.reference = r.reference AND j.lease = r.lease`,
      values: [
        jobs.map((job) => job.kind),
        jobs.map((job) => job.reference),
        jobs.map((job) => job.lease),
        jobs.map((job) => job.dueAt),
      ],
    });
  }

  /**
   * Deletions and reschedules in one statement (both run whether or not the other matches).
   *
   * Not a prepared statement (its name is a comment), as `release`: the plan Postgres would keep
   * from a new database's first runs, when the table was nearly empty, joins the batch to a scan
   * of the whole table, on every run after as the table grows. Planned on each run, with the
   * batch as arrays, whose length the planner reads (it takes a JSON recordset for 100 rows), the
   * join goes by the key.
   */
  private async write(completions: Completion[]): Promise<void> {
    await this.pool.query({
      text: `/* jobs_complete */ WITH r AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[], $5::text[])
           AS r(kind, reference, lease, due_at, error)
       ), deleted AS (
         DELETE FROM jobs j USING r
          WHERE r.due_at IS NULL
            AND j.kind = r.kind AND j.reference = r.reference AND j.lease = r.lease
       )
       UPDATE jobs j SET due_at = r.due_at, last_error = r.error
         FROM r
        WHERE r.due_at IS NOT NULL
          AND j.kind = r.kind AND j.reference = r.reference AND j.lease = r.lease`,
      values: [
        completions.map(({ job }) => job.kind),
        completions.map(({ job }) => job.reference),
        completions.map(({ job }) => job.lease),
        completions.map(({ dueAt }) => dueAt),
        completions.map(({ error }) => error),
      ],
    });
  }
}
