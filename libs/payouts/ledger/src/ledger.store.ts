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
