import { newId, type Mode } from '@xaalis/kernel';
import { holdPosting, payoutHold, type HoldRef } from '@xaalis/ledger-domain';
import { describeWithPostgres, type ThrowawayDatabase } from '@xaalis/pg-testing';
import { Ledger } from './ledger';
import { postHolds, type HoldPosting } from './ledger-batches.store';
import { expectLedgerBalanced } from './testing/expect-ledger-balanced';
import {
  balancesOf,
  countRows,
  createLedgerDatabase,
  fundMerchant,
  newMerchantId,
} from './testing/ledger-fixtures';

/**
 * The batch statement itself (`ledger_post_holds`). The Ledger's own tests cannot tell it from
 * the holds posted one by one after a batch failed, which answer the same: here a batch either
 * writes all of its holds, jobs and balance moves, or nothing.
 */
describeWithPostgres('postHolds: a batch of holds in one statement', () => {
  let db: ThrowawayDatabase;
  let ledger: Ledger;

  const funded = async (available: number) => {
    const merchantId = newMerchantId();
    await fundMerchant(ledger, merchantId, 'test', available);
    return merchantId;
  };

  const batchOf = (merchantId: string, amounts: number[], mode: Mode = 'test'): HoldPosting[] =>
    amounts.map((amount) => {
      const hold = { ref: payoutHold(newId('payout')), merchantId, mode, amount, fee: 10 };
      return { hold, posting: holdPosting(hold) };
    });

  const refsOf = (batch: HoldPosting[]): HoldRef[] => batch.map(({ hold }) => hold.ref);
  const jobsOf = (batch: HoldPosting[], dueAt: Date | null = new Date('2026-12-01T00:00:00Z')) =>
    refsOf(batch).map((ref) => ({ kind: 'test.batch', reference: ref, dueAt }));
  const jobCount = async (refs: string[]) =>
    (
      await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM jobs WHERE kind = 'test.batch' AND reference = ANY($1)`,
        [refs],
      )
    ).rows[0]!.n;

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

  it("writes every hold of two merchants with its jobs, and moves each balance by the batch's sum", async () => {
    const [a, b] = [await funded(10_000), await funded(5_000)];
    const batch = [...batchOf(a, [1_000, 2_000, 3_000]), ...batchOf(b, [4_000])];

    await postHolds(db.pool, batch, jobsOf(batch));

    expect(await balancesOf(db.pool, a, 'test')).toEqual({
      merchant_available: 10_000 - 6_030,
      merchant_pending: 6_030,
      provider_clearing: -10_000,
    });
    expect(await balancesOf(db.pool, b, 'test')).toMatchObject({
      merchant_available: 5_000 - 4_010,
      merchant_pending: 4_010,
    });
    const refs = refsOf(batch);
    expect(await countRows(db.pool, 'ledger_transactions', refs)).toBe(4);
    expect(await countRows(db.pool, 'ledger_entries', refs)).toBe(8);
    expect(await countRows(db.pool, 'ledger_holds', refs)).toBe(4);
    expect(await jobCount(refs)).toBe(4);
    const { rows } = await db.pool.query(
      `SELECT status, amount::int, fee::int FROM ledger_holds WHERE ref = $1`,
      [refs[1]],
    );
    expect(rows).toEqual([{ status: 'held', amount: 2_000, fee: 10 }]);
  });

  it('writes nothing, jobs included, when the balance does not cover the batch as a whole', async () => {
    const merchantId = await funded(3_000);
    const batch = batchOf(merchantId, [1_000, 1_000, 1_000]); // 3,030 with the fees

    await expect(postHolds(db.pool, batch, jobsOf(batch))).rejects.toMatchObject({
      constraint: 'ledger_available_not_negative',
    });

    expect(await balancesOf(db.pool, merchantId, 'test')).toMatchObject({
      merchant_available: 3_000,
    });
    expect(await countRows(db.pool, 'ledger_transactions', refsOf(batch))).toBe(0);
    expect(await jobCount(refsOf(batch))).toBe(0);
  });

  it('writes nothing when one of its holds was posted before', async () => {
    const merchantId = await funded(10_000);
    const [first, ...rest] = batchOf(merchantId, [1_000, 2_000, 3_000]);
    await ledger.hold(first!.hold);
    const batch = [...rest, first!];

    await expect(postHolds(db.pool, batch, jobsOf(batch))).rejects.toThrow(
      'A hold of the batch was posted before',
    );

    expect(await balancesOf(db.pool, merchantId, 'test')).toMatchObject({
      merchant_available: 10_000 - 1_010,
      merchant_pending: 1_010,
    });
    expect(await countRows(db.pool, 'ledger_transactions', refsOf(rest))).toBe(0);
    expect(await jobCount(refsOf(batch))).toBe(0);
  });

  it('refuses a job that is not due, before writing anything', async () => {
    const merchantId = await funded(10_000);
    const batch = batchOf(merchantId, [1_000]);

    await expect(postHolds(db.pool, batch, jobsOf(batch, null))).rejects.toThrow('is not due');
    expect(await countRows(db.pool, 'ledger_transactions', refsOf(batch))).toBe(0);
  });
});
