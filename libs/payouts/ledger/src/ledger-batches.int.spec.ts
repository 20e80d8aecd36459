import { newId, type Mode } from '@xaalis/kernel';
import {
  holdPosting,
  paymentPosting,
  payoutHold,
  type HeldFunds,
  type HoldRef,
  type LedgerPosting,
} from '@xaalis/ledger-domain';
import { describeWithPostgres, type ThrowawayDatabase } from '@xaalis/pg-testing';
import { Ledger } from './ledger';
import { postBatch } from './ledger-batches.store';
import { expectLedgerBalanced } from './testing/expect-ledger-balanced';
import {
  balancesOf,
  countRows,
  createLedgerDatabase,
  fundMerchant,
  newMerchantId,
} from './testing/ledger-fixtures';

/**
 * The batch statement itself (`ledger_post_batch`). The Ledger's own tests cannot tell it from
 * the postings made one by one after a batch failed, which answer the same: here a batch either
 * writes all of its postings, holds, jobs and balance moves, or nothing.
 */
describeWithPostgres('postBatch: a batch of postings in one statement', () => {
  let db: ThrowawayDatabase;
  let ledger: Ledger;

  const funded = async (available: number) => {
    const merchantId = newMerchantId();
    await fundMerchant(ledger, merchantId, 'test', available);
    return merchantId;
  };

  const batchOf = (merchantId: string, amounts: number[], mode: Mode = 'test'): HeldFunds[] =>
    amounts.map((amount) => ({
      ref: payoutHold(newId('payout')),
      merchantId,
      mode,
      amount,
      fee: 10,
    }));
  const postHolds = (holds: HeldFunds[], jobs = jobsOf(holds)) =>
    postBatch(db.pool, holds.map(holdPosting), holds, jobs);

  const refsOf = (batch: HeldFunds[]): HoldRef[] => batch.map(({ ref }) => ref);
  const jobsOf = (batch: HeldFunds[], dueAt: Date | null = new Date('2026-12-01T00:00:00Z')) =>
    refsOf(batch).map((ref) => ({ kind: 'test.batch', reference: ref, dueAt }));
  const creditsOf = (merchantId: string, amounts: number[]): LedgerPosting[] =>
    amounts.map((amount) =>
      paymentPosting({ paymentId: newId('payment'), merchantId, mode: 'test', amount, fee: 100 }),
    );
  const txnIdsOf = (postings: LedgerPosting[]) => postings.map(({ txnId }) => txnId);
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

    await postHolds(batch);

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

    await expect(postHolds(batch)).rejects.toMatchObject({
      constraint: 'ledger_available_not_negative',
    });

    expect(await balancesOf(db.pool, merchantId, 'test')).toMatchObject({
      merchant_available: 3_000,
    });
    expect(await countRows(db.pool, 'ledger_transactions', refsOf(batch))).toBe(0);
    expect(await jobCount(refsOf(batch))).toBe(0);
  });

  it('posts the others and leaves a hold posted before as it is, out of its answer', async () => {
    const merchantId = await funded(10_000);
    const [first, ...rest] = batchOf(merchantId, [1_000, 2_000, 3_000]);
    await ledger.hold(first!);
    const batch = [...rest, first!];

    const posted = await postHolds(batch);

    expect([...posted].sort()).toEqual(refsOf(rest).sort());
    expect(await balancesOf(db.pool, merchantId, 'test')).toMatchObject({
      merchant_available: 10_000 - 6_030,
      merchant_pending: 6_030,
    });
    expect(await countRows(db.pool, 'ledger_entries', refsOf(batch))).toBe(6);
    expect(await countRows(db.pool, 'ledger_holds', refsOf(batch))).toBe(3);
  });

  it('refuses a job that is not due, before writing anything', async () => {
    const merchantId = await funded(10_000);
    const batch = batchOf(merchantId, [1_000]);

    await expect(postHolds(batch, jobsOf(batch, null))).rejects.toThrow('is not due');
    expect(await countRows(db.pool, 'ledger_transactions', refsOf(batch))).toBe(0);
  });

  it("credits payments of two merchants, each balance moved by the batch's sum, and no hold row", async () => {
    const [a, b] = [newMerchantId(), newMerchantId()];
    const batch = [...creditsOf(a, [10_000, 2_500]), ...creditsOf(b, [4_000])];

    await postBatch(db.pool, batch);

    expect(await balancesOf(db.pool, a, 'test')).toEqual({
      merchant_available: 12_300,
      platform_fees: 200,
      provider_clearing: -12_500,
    });
    expect(await balancesOf(db.pool, b, 'test')).toEqual({
      merchant_available: 3_900,
      platform_fees: 100,
      provider_clearing: -4_000,
    });
    const ids = txnIdsOf(batch);
    expect(await countRows(db.pool, 'ledger_transactions', ids)).toBe(3);
    expect(await countRows(db.pool, 'ledger_entries', ids)).toBe(9);
    expect(await countRows(db.pool, 'ledger_holds', ids)).toBe(0);
    const { rows } = await db.pool.query(
      `SELECT DISTINCT kind FROM ledger_transactions WHERE txn_id = ANY($1)`,
      [ids],
    );
    expect(rows).toEqual([{ kind: 'payment' }]);
  });

  it('posts the others and leaves a credit posted before as it is, out of its answer', async () => {
    const merchantId = newMerchantId();
    const [first, ...rest] = creditsOf(merchantId, [1_000, 2_000, 3_000]);
    await postBatch(db.pool, [first!]);

    const posted = await postBatch(db.pool, [...rest, first!]);

    expect([...posted].sort()).toEqual(txnIdsOf(rest).sort());
    expect(await balancesOf(db.pool, merchantId, 'test')).toMatchObject({
      merchant_available: 900 + 1_900 + 2_900,
      platform_fees: 300,
      provider_clearing: -6_000,
    });
    expect(await countRows(db.pool, 'ledger_entries', txnIdsOf([first!]))).toBe(3);
  });
});
