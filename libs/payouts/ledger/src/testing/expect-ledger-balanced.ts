import type { Pool } from 'pg';
import { balanceDrift, sumOfEntries, unbalancedTransactions } from '../ledger.audit';

/**
 * "The ledger balances after every test suite": call it in `afterAll` (or `afterEach`) of any
 * suite that posts to the ledger. Throws, saying what is wrong, unless every entry sums to zero,
 * every transaction balances and every running balance equals its entries. A plain throw rather
 * than jest's `expect`, so it is safe to export from the library's index.
 */
export async function expectLedgerBalanced(pool: Pool): Promise<void> {
  const sum = await sumOfEntries(pool);
  const unbalanced = await unbalancedTransactions(pool);
  const drift = await balanceDrift(pool);
  if (sum === 0 && unbalanced.length === 0 && drift.length === 0) return;
  const report = {
    sumOfEntries: sum,
    unbalancedTransactions: unbalanced.slice(0, 20),
    balanceDrift: drift.slice(0, 20),
  };
  throw new Error(`The ledger does not balance: ${JSON.stringify(report, null, 2)}`);
}
