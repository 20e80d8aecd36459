import { processOnce } from '@xaalis/bus';
import { newId } from '@xaalis/kernel';
import { describeWithPostgres, type ThrowawayDatabase } from '@xaalis/pg-testing';
import type { PoolClient } from 'pg';
import { Ledger } from './ledger';
import { refundHold } from '@xaalis/ledger-domain';
import { expectLedgerBalanced } from './testing/expect-ledger-balanced';
import {
  balancesOf,
  countRows,
  createLedgerDatabase,
  fundMerchant,
  newMerchantId,
} from './testing/ledger-fixtures';

describeWithPostgres("Ledger: inside the caller's transaction", () => {
  let db: ThrowawayDatabase;
  let ledger: Ledger;

  /** Runs `work` in a transaction on one client, committing or rolling back as told. */
  const inCallerTransaction = async (
    end: 'COMMIT' | 'ROLLBACK',
    work: (tx: PoolClient) => Promise<void>,
  ) => {
    const tx = await db.pool.connect();
    try {
      await tx.query('BEGIN');
      await work(tx);
      await tx.query(end);
    } finally {
      tx.release();
    }
  };

  beforeAll(async () => {
    db = await createLedgerDatabase();
    ledger = new Ledger(db.pool);
  });

  afterEach(async () => {
    if (db) await expectLedgerBalanced(db.pool);
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('a rolled-back caller leaves nothing: no transaction, no entry, no balance', async () => {
    const merchantId = newMerchantId();
    const paymentId = newId('payment');

    await inCallerTransaction('ROLLBACK', async (tx) => {
      const posted = await ledger.creditPayment(
        { paymentId, merchantId, mode: 'test', amount: 900, fee: 9 },
        tx,
      );
      expect(posted.posted).toBe(true);
      // Visible inside the caller's transaction…
      expect(
        (await tx.query(`SELECT 1 FROM ledger_entries WHERE txn_id = $1`, [`payment:${paymentId}`]))
          .rowCount,
      ).toBe(3);
    });

    // …and gone with it.
    expect(await countRows(db.pool, 'ledger_transactions', [`payment:${paymentId}`])).toBe(0);
    expect(await countRows(db.pool, 'ledger_entries', [`payment:${paymentId}`])).toBe(0);
    expect(await balancesOf(db.pool, merchantId, 'test')).toEqual({});
  });

  it('a rolled-back hold, settle or release leaves the balances as they were', async () => {
    const merchantId = newMerchantId();
    await fundMerchant(ledger, merchantId, 'test', 3_000);
    const kept = refundHold(newId('refund'));
    await ledger.hold({ ref: kept, merchantId, mode: 'test', amount: 1_000 });
    const before = await balancesOf(db.pool, merchantId, 'test');

    await inCallerTransaction('ROLLBACK', async (tx) => {
      await ledger.hold(
        { ref: refundHold(newId('refund')), merchantId, mode: 'test', amount: 500 },
        tx,
      );
      await ledger.settleHold({ ref: kept, to: 'customer_refunds' }, tx);
    });
    await inCallerTransaction('ROLLBACK', async (tx) => {
      await ledger.releaseHold({ ref: kept }, tx);
    });

    expect(await balancesOf(db.pool, merchantId, 'test')).toEqual(before);
    // The hold is still held, so it can still end either way.
    expect(await ledger.releaseHold({ ref: kept })).toMatchObject({
      outcome: 'released',
      posted: true,
    });
  });

  it('commits with the caller', async () => {
    const merchantId = newMerchantId();
    await inCallerTransaction('COMMIT', async (tx) => {
      await ledger.creditPayment(
        { paymentId: newId('payment'), merchantId, mode: 'live', amount: 2_000, fee: 0 },
        tx,
      );
      await ledger.hold(
        { ref: refundHold(newId('refund')), merchantId, mode: 'live', amount: 1_500 },
        tx,
      );
    });

    expect(await balancesOf(db.pool, merchantId, 'live')).toMatchObject({
      merchant_available: 500,
      merchant_pending: 1_500,
    });
  });

  it("a refused hold changes nothing and leaves the caller's transaction usable", async () => {
    const merchantId = newMerchantId();
    await fundMerchant(ledger, merchantId, 'test', 1_000);
    const paymentId = newId('payment');

    await inCallerTransaction('COMMIT', async (tx) => {
      await expect(
        ledger.hold(
          { ref: refundHold(newId('refund')), merchantId, mode: 'test', amount: 5_000 },
          tx,
        ),
      ).rejects.toMatchObject({ code: 'insufficient_funds' });
      // The caller carries on in the same transaction, e.g. with the next message's posting.
      await ledger.creditPayment({ paymentId, merchantId, mode: 'test', amount: 300, fee: 0 }, tx);
    });

    expect(await balancesOf(db.pool, merchantId, 'test')).toMatchObject({
      merchant_available: 1_300,
    });
    expect((await balancesOf(db.pool, merchantId, 'test')).merchant_pending ?? 0).toBe(0);
  });

  it('refuses a client that is not inside a transaction', async () => {
    const client = await db.pool.connect();
    try {
      await expect(
        ledger.creditPayment(
          {
            paymentId: newId('payment'),
            merchantId: newMerchantId(),
            mode: 'test',
            amount: 1,
            fee: 0,
          },
          client,
        ),
      ).rejects.toThrow(/SAVEPOINT can only be used in transaction blocks/);
    } finally {
      client.release();
    }
  });

  describe('in a bus consumer (processOnce)', () => {
    const consumer = 'payouts.ledger.payment-succeeded';

    it('a redelivered message credits once, and a failed delivery credits nothing', async () => {
      const merchantId = newMerchantId();
      const messageId = newId('event');
      const credit = {
        paymentId: newId('payment'),
        merchantId,
        mode: 'test' as const,
        amount: 4_000,
        fee: 40,
      };

      // First delivery posts, then the consumer fails: its transaction rolls the posting back.
      await expect(
        processOnce(db.pool, consumer, messageId, async (tx) => {
          await ledger.creditPayment(credit, tx);
          throw new Error('handler crashed after posting');
        }),
      ).rejects.toThrow('handler crashed after posting');
      expect(await balancesOf(db.pool, merchantId, 'test')).toEqual({});

      // Redeliveries: one runs, the others are skipped.
      const runs = await Promise.all(
        Array.from({ length: 5 }, () =>
          processOnce(db.pool, consumer, messageId, async (tx) => {
            await ledger.creditPayment(credit, tx);
          }),
        ),
      );

      expect(runs.filter(Boolean)).toHaveLength(1);
      expect(await balancesOf(db.pool, merchantId, 'test')).toMatchObject({
        merchant_available: 3_960,
      });
    });

    it('the same payment arriving in two different messages is still credited once', async () => {
      const merchantId = newMerchantId();
      const credit = {
        paymentId: newId('payment'),
        merchantId,
        mode: 'test' as const,
        amount: 1_000,
        fee: 0,
      };
      const results: boolean[] = [];

      for (const messageId of [newId('event'), newId('event')]) {
        await processOnce(db.pool, consumer, messageId, async (tx) => {
          results.push((await ledger.creditPayment(credit, tx)).posted);
        });
      }

      expect(results).toEqual([true, false]);
      expect(await balancesOf(db.pool, merchantId, 'test')).toMatchObject({
        merchant_available: 1_000,
      });
    });
  });
});
