import { newId } from '@xaalis/kernel';
import { describeWithPostgres, type ThrowawayDatabase } from '@xaalis/pg-testing';
import { Ledger } from './ledger';
import { balanceDrift, sumOfEntries, unbalancedTransactions } from './ledger.audit';
import { payoutHold } from '@xaalis/ledger-domain';
import { expectLedgerBalanced } from './testing/expect-ledger-balanced';
import { createLedgerDatabase, fundMerchant, newMerchantId } from './testing/ledger-fixtures';

describeWithPostgres('Ledger audit', () => {
  let db: ThrowawayDatabase;
  let ledger: Ledger;

  beforeAll(async () => {
    db = await createLedgerDatabase();
    ledger = new Ledger(db.pool);
  });

  afterAll(async () => {
    await expectLedgerBalanced(db.pool);
    await db?.drop();
  });

  it('an empty ledger balances', async () => {
    expect(await sumOfEntries(db.pool)).toBe(0);
    expect(await unbalancedTransactions(db.pool)).toEqual([]);
    expect(await balanceDrift(db.pool)).toEqual([]);
  });

  it('a ledger written by the Ledger balances', async () => {
    const merchantId = newMerchantId();
    await fundMerchant(ledger, merchantId, 'live', 10_000);
    const ref = payoutHold(newId('payout'));
    await ledger.hold({ ref, merchantId, mode: 'live', amount: 4_000, fee: 50 });
    await ledger.settleHold({ ref, to: 'payouts_sent' });

    expect(await sumOfEntries(db.pool)).toBe(0);
    expect(await unbalancedTransactions(db.pool)).toEqual([]);
    expect(await balanceDrift(db.pool)).toEqual([]);
    await expect(expectLedgerBalanced(db.pool)).resolves.toBeUndefined();
  });

  describe('finds what was written around the Ledger', () => {
    const merchantId = newMerchantId();

    afterEach(async () => {
      // Undo the planted damage so the suite's own final check holds.
      await db.pool.query(`DELETE FROM ledger_entries WHERE txn_id LIKE 'planted:%'`);
      await db.pool.query(`DELETE FROM ledger_transactions WHERE txn_id LIKE 'planted:%'`);
      await db.pool.query(`DELETE FROM ledger_balances WHERE merchant_id = $1`, [merchantId]);
    });

    it('a transaction whose entries do not sum to zero', async () => {
      await db.pool.query(
        `INSERT INTO ledger_transactions (txn_id, merchant_id, mode, kind) VALUES ('planted:1', $1, 'test', 'payment')`,
        [merchantId],
      );
      await db.pool.query(
        `INSERT INTO ledger_entries (txn_id, merchant_id, mode, account, amount) VALUES
           ('planted:1', $1, 'test', 'merchant_available', 700),
           ('planted:1', $1, 'test', 'provider_clearing', -650)`,
        [merchantId],
      );

      expect(await sumOfEntries(db.pool)).toBe(50);
      expect(await unbalancedTransactions(db.pool)).toEqual(['planted:1']);
      await expect(expectLedgerBalanced(db.pool)).rejects.toThrow(
        /"sumOfEntries": 50[\s\S]*planted:1/,
      );
    });

    it('a transaction with a single entry, or none', async () => {
      await db.pool.query(
        `INSERT INTO ledger_transactions (txn_id, merchant_id, mode, kind) VALUES
           ('planted:empty', $1, 'test', 'payment'), ('planted:zero', $1, 'test', 'payment')`,
        [merchantId],
      );
      await db.pool.query(
        `INSERT INTO ledger_entries (txn_id, merchant_id, mode, account, amount)
         VALUES ('planted:zero', $1, 'test', 'merchant_available', 0)`,
        [merchantId],
      );

      expect(await sumOfEntries(db.pool)).toBe(0);
      expect(await unbalancedTransactions(db.pool)).toEqual(['planted:empty', 'planted:zero']);
    });

    it('a running balance that is not the sum of its entries', async () => {
      await db.pool.query(
        `INSERT INTO ledger_balances (merchant_id, mode, account, balance) VALUES ($1, 'test', 'merchant_available', 42)`,
        [merchantId],
      );

      expect(await balanceDrift(db.pool)).toEqual([
        { merchantId, mode: 'test', account: 'merchant_available', balance: 42, entries: 0 },
      ]);
      await expect(expectLedgerBalanced(db.pool)).rejects.toThrow(
        /balanceDrift[\s\S]*"balance": 42/,
      );
    });
  });

  it('the database refuses an entry of another merchant than its transaction', async () => {
    const owner = newMerchantId();
    await fundMerchant(ledger, owner, 'test', 100);
    const { rows } = await db.pool.query<{ txn_id: string }>(
      `SELECT txn_id FROM ledger_transactions WHERE merchant_id = $1`,
      [owner],
    );

    await expect(
      db.pool.query(
        `INSERT INTO ledger_entries (txn_id, merchant_id, mode, account, amount) VALUES ($1, $2, 'test', 'merchant_available', 1)`,
        [rows[0]!.txn_id, newMerchantId()],
      ),
    ).rejects.toMatchObject({ code: '23503', constraint: 'ledger_entries_txn_fkey' });
  });
});
