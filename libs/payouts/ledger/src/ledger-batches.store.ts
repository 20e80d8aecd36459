import type { Mode } from '@xaalis/kernel';
import type { Pool, PoolClient } from 'pg';
import type { JobChange } from '@xaalis/jobs';
import type { HeldFunds, HoldRef, LedgerPosting } from '@xaalis/ledger-domain';

/*
 * What a batch writes and locks: many postings (holds, credits) posted in one call, and a batch
 * of hold endings' locks taken first. The single posting and the hold rows are `ledger.store.ts`'s.
 */

/**
 * Posts the postings of `postings` not posted before, the hold rows of `holds` (each a posting's
 * own, by ref) and `jobs` (due jobs, written as they would be with each posting alone), in one
 * statement and so one transaction: `ledger_post_batch` (migration
 * `20261201000100_ledger_post_batch`), which moves each balance row by the sum of the new
 * postings' entries for it. Answers the ids of the transactions it posted; one posted before is
 * left as it is, for the caller to post alone, where a repeat is told from a conflicting one. The
 * ids must differ. Throws, having written nothing, when the balance does not cover the batch as
 * a whole, or for a job set to null: the caller then posts each alone.
 */
export async function postBatch(
  db: Pick<Pool, 'query'>,
  postings: LedgerPosting[],
  holds: HeldFunds[] = [],
  jobs: JobChange[] = [],
): Promise<Set<string>> {
  const due = jobs.map(({ kind, reference, dueAt }) => {
    if (dueAt === null) throw new TypeError(`A posting's job ${kind} ${reference} is not due`);
    return { kind, reference, due_at: dueAt.toISOString() };
  });
  const transactions = postings.map(({ txnId, merchantId, mode, kind }) => ({
    txn_id: txnId,
    merchant_id: merchantId,
    mode,
    kind,
  }));
  const entries = postings.flatMap((posting) =>
    posting.entries.map((entry) => ({ txn_id: posting.txnId, ...entry })),
  );
  const { rows } = await db.query<{ txn_id: string }>({
    name: 'ledger_post_batch',
    text: 'SELECT txn_id FROM ledger_post_batch($1::jsonb, $2::jsonb, $3::jsonb, $4::jsonb) AS txn_id',
    values: [
      JSON.stringify(transactions),
      JSON.stringify(entries),
      JSON.stringify(holds.map(({ ref, amount, fee }) => ({ ref, amount, fee }))),
      JSON.stringify(due),
    ],
  });
  return new Set(rows.map((row) => row.txn_id));
}

/**
 * Locks what ending these holds will write, before any of it is written, in the one order every
 * transaction of the ledger takes its locks in: hold rows by ref, then balance rows by merchant,
 * mode and account. A transaction that ends several holds would otherwise take one posting's
 * balance rows after another's hold row, and a settlement's platform_fees before a release's
 * merchant_available, and deadlock with a payment or a hold of the same merchant. Answers the
 * merchant of each hold (a hold never made is left out).
 */
export async function lockForEndings(
  tx: PoolClient,
  refs: HoldRef[],
): Promise<Map<string, string>> {
  const { rows } = await tx.query<{ ref: string; merchant_id: string; mode: Mode }>(
    `SELECT h.ref, t.merchant_id, t.mode FROM ledger_holds h JOIN ledger_transactions t ON t.txn_id = h.ref
      WHERE h.ref = ANY($1::text[]) ORDER BY h.ref FOR UPDATE OF h`,
    [refs],
  );
  await tx.query(
    `SELECT 1 FROM ledger_balances
      WHERE (merchant_id, mode) IN (SELECT * FROM unnest($1::text[], $2::text[]))
      ORDER BY merchant_id, mode, account FOR UPDATE`,
    [rows.map((row) => row.merchant_id), rows.map((row) => row.mode)],
  );
  return new Map(rows.map((row) => [row.ref, row.merchant_id]));
}
