/**
 * The caller's transaction: a Prisma transaction client (a projection's) or a `pg` client or pool.
 * Jobs are written in the transaction of the facts that call for them, so a restart loses none.
 */
export type JobsTransaction =
  | { $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number> }
  | { query(text: string, values: unknown[]): Promise<unknown> };

/** A job to be due at a time, or (`dueAt: null`) no longer wanted. */
export interface JobChange {
  kind: string;
  reference: string;
  dueAt: Date | null;
}

/**
 * Writes `changes` in the caller's transaction, in at most two statements; a job named twice
 * takes its last change. A due job is inserted, or if it exists rescheduled: its attempts and
 * last error start again from nothing, and its lease moves on, so a runner still running the
 * previous schedule neither deletes nor reschedules it when it finishes. A job set to null is
 * deleted, leased or not: whatever runs it finds nothing left to do or repeats work that is safe
 * to repeat. The ledger's batch of postings writes its due jobs with this same upsert inside its
 * SQL function (`ledger_post_batch`, migration `20261201000100_ledger_post_batch`): change both.
 */
export async function scheduleJobs(tx: JobsTransaction, changes: JobChange[]): Promise<void> {
  const last = new Map<string, JobChange>();
  for (const change of changes) last.set(`${change.kind} ${change.reference}`, change);
  // Key order, so two transactions scheduling the same jobs lock them in the same order.
  const ordered = [...last.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const due = ordered.flatMap(([, change]) =>
    change.dueAt === null
      ? []
      : [{ kind: change.kind, reference: change.reference, due_at: change.dueAt.toISOString() }],
  );
  const gone = ordered.flatMap(([, change]) =>
    change.dueAt === null ? [{ kind: change.kind, reference: change.reference }] : [],
  );
  if (due.length > 0) {
    await execute(
      tx,
      `INSERT INTO jobs (kind, reference, due_at)
       SELECT kind, reference, due_at
         FROM jsonb_to_recordset($1::jsonb) AS r(kind text, reference text, due_at timestamptz)
       ON CONFLICT (kind, reference) DO UPDATE
         SET due_at = EXCLUDED.due_at, attempts = 0, last_error = NULL, lease = jobs.lease + 1`,
      [JSON.stringify(due)],
    );
  }
  if (gone.length > 0) {
    // Arrays, whose length the planner reads: it takes a JSON recordset for 100 rows, and joins
    // 100 rows to a table of some thousands by scanning it whole.
    await execute(
      tx,
      `DELETE FROM jobs j
        USING unnest($1::text[], $2::text[]) AS r(kind, reference)
        WHERE j.kind = r.kind AND j.reference = r.reference`,
      [gone.map((job) => job.kind), gone.map((job) => job.reference)],
    );
  }
}

/** Deletes every job of these kinds: a projection's reset before it is rebuilt from its streams. */
export async function deleteJobsOfKinds(tx: JobsTransaction, kinds: string[]): Promise<void> {
  await execute(tx, 'DELETE FROM jobs WHERE kind = ANY($1::text[])', [kinds]);
}

async function execute(tx: JobsTransaction, sql: string, values: unknown[]): Promise<void> {
  if ('$executeRawUnsafe' in tx) await tx.$executeRawUnsafe(sql, ...values);
  else await tx.query(sql, values);
}
