import type { Pool } from 'pg';

/**
 * What the HTTP API does not show, read from the service's database: the ledger's transactions
 * and holds, and the refunds as the payment's own folded state records them (what
 * `GET /v1/refunds` shows is the `refunds` read model, checked over HTTP in payments-refunds.e2e).
 */

/** Ledger transaction ids of a merchant and mode, sorted. */
export async function ledgerTransactionIds(
  pool: Pool,
  merchantId: string,
  mode: 'test' | 'live' = 'test',
): Promise<string[]> {
  const { rows } = await pool.query<{ txn_id: string }>(
    'SELECT txn_id FROM ledger_transactions WHERE merchant_id = $1 AND mode = $2 ORDER BY txn_id',
    [merchantId, mode],
  );
  return rows.map((row) => row.txn_id);
}

export interface RecordedRefund {
  refundId: string;
  amount: number;
  status: 'pending' | 'succeeded' | 'failed';
  failureReason: string | null;
}

/** The refunds on a payment as its read model holds them, oldest first. */
export async function refundsOf(pool: Pool, paymentId: string): Promise<RecordedRefund[]> {
  const { rows } = await pool.query<{ state: { refunds: RecordedRefund[] } }>(
    'SELECT state FROM payments WHERE id = $1',
    [paymentId],
  );
  return (rows[0]?.state.refunds ?? []).map(({ refundId, amount, status, failureReason }) => ({
    refundId,
    amount,
    status,
    failureReason,
  }));
}

/** The ledger hold of a refund: `held`, `settled` or `released`; undefined when none was taken. */
export async function refundHoldStatus(pool: Pool, refundId: string): Promise<string | undefined> {
  const { rows } = await pool.query<{ status: string }>(
    'SELECT status FROM ledger_holds WHERE ref = $1',
    [`refund:${refundId}`],
  );
  return rows[0]?.status;
}
