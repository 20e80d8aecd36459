import { runMigrations } from '@xaalis/database';
import { newId, type Mode } from '@xaalis/kernel';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@xaalis/pg-testing';
import type { Pool } from 'pg';
import type { LedgerAccount } from '@xaalis/ledger-domain';
import type { Ledger } from '../ledger';

/** A throwaway database with every migration applied, for this library's int tests. */
export const createLedgerDatabase = (poolMax?: number): Promise<ThrowawayDatabase> =>
  createThrowawayDatabase({
    prefix: 'xaalis_ledger',
    poolMax,
    setup: (pool) => runMigrations(pool),
  });

export const newMerchantId = (): string => newId('merchant');

/** Puts `net` in the merchant's available balance, through a payment without fee. */
export async function fundMerchant(
  ledger: Ledger,
  merchantId: string,
  mode: Mode,
  net: number,
): Promise<void> {
  await ledger.creditPayment({
    paymentId: newId('payment'),
    merchantId,
    mode,
    amount: net,
    fee: 0,
  });
}

/** Every account's running balance for a merchant and mode; accounts never posted to are absent. */
export async function balancesOf(
  pool: Pool,
  merchantId: string,
  mode: Mode,
): Promise<Partial<Record<LedgerAccount, number>>> {
  const { rows } = await pool.query<{ account: LedgerAccount; balance: string }>(
    `SELECT account, balance::text AS balance FROM ledger_balances WHERE merchant_id = $1 AND mode = $2`,
    [merchantId, mode],
  );
  return Object.fromEntries(rows.map((row) => [row.account, Number(row.balance)]));
}

/** How many rows `table` holds for the given transaction ids (or holds refs). */
export async function countRows(
  pool: Pool,
  table: 'ledger_transactions' | 'ledger_entries' | 'ledger_holds',
  ids: string[],
): Promise<number> {
  const column = table === 'ledger_holds' ? 'ref' : 'txn_id';
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} WHERE ${column} = ANY($1::text[])`,
    [ids],
  );
  return rows[0]!.n;
}

/** Settled outcomes of promises, split into values and errors. */
export async function allSettled<T>(
  work: Array<Promise<T>>,
): Promise<{ values: T[]; errors: unknown[] }> {
  const outcomes = await Promise.allSettled(work);
  return {
    values: outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : [])),
    errors: outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : [])),
  };
}
