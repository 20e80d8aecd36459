import { DomainError, type Mode } from '@xaalis/kernel';
import type { PoolClient } from 'pg';
import type { HeldFunds, HoldRef, LedgerPosting, SettlementAccount } from '@xaalis/ledger-domain';

/**
 * Records the transaction and its entries, and makes sure a balance row exists for each account.
 * The insert of the transaction id decides: a duplicate finds it taken (waiting, if the first is
 * still running, for it to commit or roll back) and writes nothing.
 */
const RECORD = `
WITH txn AS (
  INSERT INTO ledger_transactions (txn_id, merchant_id, mode, kind)
  VALUES ($1, $2, $3, $4)
  ON CONFLICT (txn_id) DO NOTHING
  RETURNING txn_id, merchant_id, mode
), entry AS (
  SELECT account, amount, n FROM unnest($5::text[], $6::bigint[]) WITH ORDINALITY AS e(account, amount, n)
), written AS (
  INSERT INTO ledger_entries (txn_id, merchant_id, mode, account, amount)
  SELECT txn.txn_id, txn.merchant_id, txn.mode, entry.account, entry.amount FROM txn, entry
), opened AS (
  INSERT INTO ledger_balances (merchant_id, mode, account, balance)
  SELECT txn.merchant_id, txn.mode, entry.account, 0 FROM txn, entry ORDER BY entry.account
  ON CONFLICT (merchant_id, mode, account) DO NOTHING
)
SELECT txn_id FROM txn`;

/**
 * Moves the running balances, one row after the other in the accounts' order: that is the order
 * their row locks are taken in (an upsert follows its input's order, an UPDATE … FROM a join's
 * whim), and every posting locks a merchant's rows in that one order, so none can deadlock with
 * another (a hold takes available then pending, a release pending then available, in their
 * entries). The rows exist (RECORD opened them, in the same order), so every row conflicts and
 * takes the update; the inserted tuple is a 0 only because Postgres checks the CHECK on it before
 * it looks for the conflict. A hold that would take merchant_available below zero fails here, on
 * ledger_available_not_negative (23514).
 */
const MOVE = `
INSERT INTO ledger_balances AS b (merchant_id, mode, account, balance)
SELECT $1, $2, account, 0 FROM unnest($3::text[]) AS e(account) ORDER BY account
ON CONFLICT (merchant_id, mode, account) DO UPDATE
SET balance = b.balance + ($4::bigint[])[array_position($3::text[], b.account)]`;

/**
 * Posts `posting` unless its transaction id was posted before; true when this call posted it.
 * A duplicate must be the same posting: the same id with other entries is a caller's bug that
 * would otherwise vanish silently.
 */
export async function post(tx: PoolClient, posting: LedgerPosting): Promise<boolean> {
  const { txnId, merchantId, mode, kind, entries } = posting;
  const accounts = entries.map((entry) => entry.account);
  const amounts = entries.map((entry) => entry.amount);
  const recorded = await tx.query(RECORD, [txnId, merchantId, mode, kind, accounts, amounts]);
  if ((recorded.rowCount ?? 0) > 0) {
    await tx.query(MOVE, [merchantId, mode, accounts, amounts]);
    return true;
  }
  if ((await readPosting(tx, txnId)) !== fingerprint(posting)) {
    throw new DomainError(
      'idempotency_conflict',
      `Ledger transaction ${txnId} was already posted with other entries.`,
      { txnId },
    );
  }
  return false;
}

const fingerprint = (posting: LedgerPosting): string =>
  JSON.stringify([
    posting.merchantId,
    posting.mode,
    posting.kind,
    posting.entries.map((entry) => [entry.account, entry.amount]),
  ]);

async function readPosting(tx: PoolClient, txnId: string): Promise<string> {
  const { rows } = await tx.query<{
    merchant_id: string;
    mode: Mode;
    kind: LedgerPosting['kind'];
    account: string;
    amount: string;
  }>(
    `SELECT t.merchant_id, t.mode, t.kind, e.account, e.amount::text AS amount
       FROM ledger_transactions t JOIN ledger_entries e ON e.txn_id = t.txn_id
      WHERE t.txn_id = $1 ORDER BY e.account`,
    [txnId],
  );
  const first = rows[0];
  if (!first) return '';
  return JSON.stringify([
    first.merchant_id,
    first.mode,
    first.kind,
    rows.map((row) => [row.account, Number(row.amount)]),
  ]);
}

export async function recordHold(tx: PoolClient, hold: HeldFunds): Promise<void> {
  await tx.query(`INSERT INTO ledger_holds (ref, amount, fee) VALUES ($1, $2, $3)`, [
    hold.ref,
    hold.amount,
    hold.fee,
  ]);
}

export type HoldStatus =
  { status: 'held' } | { status: 'settled'; settledTo: SettlementAccount } | { status: 'released' };

/**
 * Ends a hold that is still held, returning it; null when it is not (missing, or ended already).
 * The row lock serializes a concurrent settle and release: the second re-reads `status` once the
 * first commits, and finds the hold no longer held.
 */
export async function endHold(
  tx: PoolClient,
  ref: HoldRef,
  end: Exclude<HoldStatus, { status: 'held' }>,
): Promise<HeldFunds | null> {
  const { rows } = await tx.query<{
    merchant_id: string;
    mode: Mode;
    amount: string;
    fee: string;
  }>(
    `UPDATE ledger_holds h SET status = $2, settled_to = $3, resolved_at = now()
       FROM ledger_transactions t
      WHERE h.ref = $1 AND h.status = 'held' AND t.txn_id = h.ref
  RETURNING t.merchant_id, t.mode, h.amount::text AS amount, h.fee::text AS fee`,
    [ref, end.status, end.status === 'settled' ? end.settledTo : null],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    ref,
    merchantId: row.merchant_id,
    mode: row.mode,
    amount: Number(row.amount),
    fee: Number(row.fee),
  };
}

export async function holdStatus(tx: PoolClient, ref: HoldRef): Promise<HoldStatus | null> {
  const { rows } = await tx.query<{
    status: HoldStatus['status'];
    settled_to: SettlementAccount | null;
  }>(`SELECT status, settled_to FROM ledger_holds WHERE ref = $1`, [ref]);
  const row = rows[0];
  if (!row) return null;
  if (row.status === 'settled') return { status: 'settled', settledTo: row.settled_to! };
  return { status: row.status };
}

/**
 * The hold with its amounts and status, its row locked until the transaction ends; null when no
 * such hold was made. The lock orders a reversal after a settle or release already running (and
 * them after it): whichever comes second sees what the first did.
 */
export async function lockHold(
  tx: PoolClient,
  ref: HoldRef,
): Promise<{ held: HeldFunds; status: HoldStatus } | null> {
  const { rows } = await tx.query<{
    merchant_id: string;
    mode: Mode;
    amount: string;
    fee: string;
    status: HoldStatus['status'];
    settled_to: SettlementAccount | null;
  }>(
    `SELECT t.merchant_id, t.mode, h.amount::text AS amount, h.fee::text AS fee, h.status, h.settled_to
       FROM ledger_holds h JOIN ledger_transactions t ON t.txn_id = h.ref
      WHERE h.ref = $1
        FOR UPDATE OF h`,
    [ref],
  );
  const row = rows[0];
  if (!row) return null;
  const held = {
    ref,
    merchantId: row.merchant_id,
    mode: row.mode,
    amount: Number(row.amount),
    fee: Number(row.fee),
  };
  if (row.status === 'settled') {
    return { held, status: { status: 'settled', settledTo: row.settled_to! } };
  }
  return { held, status: { status: row.status } };
}

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
