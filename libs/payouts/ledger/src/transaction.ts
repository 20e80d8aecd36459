import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` in the caller's transaction (`client`, already after BEGIN) or in one of its own.
 * In the caller's it runs under a savepoint: a posting that fails (insufficient funds) then
 * changes nothing and leaves the caller's transaction usable, to record the refusal for instance.
 * A client outside any transaction fails at SAVEPOINT rather than half-posting.
 */
export async function inTransaction<T>(
  pool: Pool,
  client: PoolClient | undefined,
  work: (tx: PoolClient) => Promise<T>,
): Promise<T> {
  if (client) return underSavepoint(client, work);
  const tx = await pool.connect();
  // A connection whose ROLLBACK failed is in an unknown state: destroy it, never reuse it.
  let broken = false;
  try {
    await tx.query('BEGIN');
    const result = await work(tx);
    await tx.query('COMMIT');
    return result;
  } catch (error) {
    await tx.query('ROLLBACK').catch(() => (broken = true));
    throw error;
  } finally {
    tx.release(broken);
  }
}

async function underSavepoint<T>(tx: PoolClient, work: (tx: PoolClient) => Promise<T>): Promise<T> {
  await tx.query('SAVEPOINT ledger_posting');
  try {
    const result = await work(tx);
    await tx.query('RELEASE SAVEPOINT ledger_posting');
    return result;
  } catch (error) {
    await tx.query('ROLLBACK TO SAVEPOINT ledger_posting').catch(() => undefined);
    await tx.query('RELEASE SAVEPOINT ledger_posting').catch(() => undefined);
    throw error;
  }
}
