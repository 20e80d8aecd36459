import type { Mode } from '@xaalis/kernel';
import type { PoolClient } from 'pg';
import type { HeldFunds, HoldRef, LedgerPosting } from '@xaalis/ledger-domain';

/*
 * What a batch writes and locks: many holds posted in one statement, and a batch of hold endings'
 * locks taken first. The single posting and the hold rows are `ledger.store.ts`'s.
 */

/**
 * Many holds' postings in one statement: their transactions, entries and hold rows, and the
 * balance rows they need opened. Answers the transaction ids it recorded; one already there (a
 * retry's) is not, and is left to the caller.
 */
const RECORD_HOLDS = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb)
    AS r(txn_id text, merchant_id text, mode text, amount bigint, fee bigint)
), txn AS (
  INSERT INTO ledger_transactions (txn_id, merchant_id, mode, kind)
  SELECT txn_id, merchant_id, mode, 'hold' FROM input ORDER BY txn_id
  ON CONFLICT (txn_id) DO NOTHING
  RETURNING txn_id, merchant_id, mode
), entry AS (
  SELECT * FROM jsonb_to_recordset($2::jsonb) AS e(txn_id text, account text, amount bigint)
), written AS (
  INSERT INTO ledger_entries (txn_id, merchant_id, mode, account, amount)
  SELECT txn.txn_id, txn.merchant_id, txn.mode, entry.account, entry.amount
    FROM txn JOIN entry USING (txn_id)
), opened AS (
  INSERT INTO ledger_balances (merchant_id, mode, account, balance)
  SELECT DISTINCT txn.merchant_id, txn.mode, entry.account, 0::bigint
    FROM txn JOIN entry USING (txn_id)
   ORDER BY 1, 2, 3
  ON CONFLICT (merchant_id, mode, account) DO NOTHING
), held AS (
  INSERT INTO ledger_holds (ref, amount, fee)
  SELECT input.txn_id, input.amount, input.fee FROM input JOIN txn USING (txn_id)
)
SELECT txn_id FROM txn`;

/**
 * MOVE for many postings at once: each balance row moves by the sum of the batch's entries for
 * it, in (merchant, mode, account) order, the order single postings lock in (they lock one
 * merchant's rows by account). A sum that takes merchant_available below zero fails the CHECK,
 * and with it the whole batch.
 */
const MOVE_MANY = `
INSERT INTO ledger_balances AS b (merchant_id, mode, account, balance)
SELECT merchant_id, mode, account, 0
  FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS e(merchant_id, mode, account, n)
 ORDER BY n
ON CONFLICT (merchant_id, mode, account) DO UPDATE
SET balance = b.balance + ($4::bigint[])[
  array_position($5::text[], b.merchant_id || ' ' || b.mode || ' ' || b.account)]`;

export interface HoldPosting {
  hold: HeldFunds;
  posting: LedgerPosting;
}

/**
 * Posts every hold of `batch` in the caller's transaction, or throws and leaves it to be rolled
 * back: also when one of them was posted before, so that the caller sends each alone, where
 * `post` checks that the repeat is the same posting.
 */
export async function postHolds(tx: PoolClient, batch: HoldPosting[]): Promise<void> {
  const input = batch.map(({ hold, posting }) => ({
    txn_id: posting.txnId,
    merchant_id: posting.merchantId,
    mode: posting.mode,
    amount: hold.amount,
    fee: hold.fee,
  }));
  const entries = batch.flatMap(({ posting }) =>
    posting.entries.map((entry) => ({ txn_id: posting.txnId, ...entry })),
  );
  const recorded = await tx.query(RECORD_HOLDS, [JSON.stringify(input), JSON.stringify(entries)]);
  if ((recorded.rowCount ?? 0) !== batch.length) {
    throw new Error('A hold of the batch was posted before: each goes alone');
  }
  const sums = new Map<
    string,
    { merchantId: string; mode: Mode; account: string; amount: number }
  >();
  for (const { posting } of batch) {
    for (const entry of posting.entries) {
      const key = `${posting.merchantId} ${posting.mode} ${entry.account}`;
      const sum = sums.get(key);
      if (sum) sum.amount += entry.amount;
      else sums.set(key, { ...posting, account: entry.account, amount: entry.amount });
    }
  }
  const rows = [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  await tx.query(MOVE_MANY, [
    rows.map(([, row]) => row.merchantId),
    rows.map(([, row]) => row.mode),
    rows.map(([, row]) => row.account),
    rows.map(([, row]) => row.amount),
    rows.map(([key]) => key),
  ]);
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
