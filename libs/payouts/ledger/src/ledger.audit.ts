import type { Mode } from '@xaalis/kernel';
import type { Pool, PoolClient } from 'pg';

type Db = Pool | PoolClient;

/** Sum of every entry ever posted: 0 in a double-entry ledger. */
export async function sumOfEntries(db: Db): Promise<number> {
  const { rows } = await db.query<{ sum: string }>(
    `SELECT coalesce(sum(amount), 0)::text AS sum FROM ledger_entries`,
  );
  return Number(rows[0]!.sum);
}

/**
 * Transactions whose entries do not sum to zero, and those with fewer than two entries (a
 * transaction that moved nothing, or from one account to nowhere). Empty in a sound ledger.
 */
export async function unbalancedTransactions(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ txn_id: string }>(
    `SELECT t.txn_id FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.txn_id = t.txn_id
      GROUP BY t.txn_id
     HAVING coalesce(sum(e.amount), 0) <> 0 OR count(e.id) < 2
      ORDER BY t.txn_id`,
  );
  return rows.map((row) => row.txn_id);
}

export interface BalanceDrift {
  merchantId: string;
  mode: Mode;
  account: string;
  /** The running balance in ledger_balances. */
  balance: number;
  /** What the account's entries add up to. */
  entries: number;
}

/** Accounts whose running balance is not the sum of their entries. Empty in a sound ledger. */
export async function balanceDrift(db: Db): Promise<BalanceDrift[]> {
  const { rows } = await db.query<{
    merchant_id: string;
    mode: Mode;
    account: string;
    balance: string;
    entries: string;
  }>(
    `WITH summed AS (
       SELECT merchant_id, mode, account, sum(amount) AS entries
         FROM ledger_entries GROUP BY merchant_id, mode, account
     )
     SELECT merchant_id, mode, account,
            coalesce(b.balance, 0)::text AS balance, coalesce(s.entries, 0)::text AS entries
       FROM ledger_balances b FULL JOIN summed s USING (merchant_id, mode, account)
      WHERE coalesce(b.balance, 0) <> coalesce(s.entries, 0)
      ORDER BY merchant_id, mode, account`,
  );
  return rows.map((row) => ({
    merchantId: row.merchant_id,
    mode: row.mode,
    account: row.account,
    balance: Number(row.balance),
    entries: Number(row.entries),
  }));
}
