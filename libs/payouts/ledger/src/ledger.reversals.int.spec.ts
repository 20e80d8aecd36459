import { newId, type Mode } from '@xaalis/kernel';
import { describeWithPostgres, type ThrowawayDatabase } from '@xaalis/pg-testing';
import { payoutHold, refundHold, type HoldRef } from '@xaalis/ledger-domain';
import { Ledger } from './ledger';
import { expectLedgerBalanced } from './testing/expect-ledger-balanced';
import {
  allSettled,
  balancesOf,
  countRows,
  createLedgerDatabase,
  fundMerchant,
  newMerchantId,
} from './testing/ledger-fixtures';

describeWithPostgres('Ledger: reversals of settled holds', () => {
  let db: ThrowawayDatabase;
  let ledger: Ledger;

  /** A merchant with `available` XOF available in `mode`. */
  const funded = async (available: number, mode: Mode = 'live') => {
    const merchantId = newMerchantId();
    await fundMerchant(ledger, merchantId, mode, available);
    return merchantId;
  };

  /** A payout of 10 000 XOF with a fee of 150, held from a merchant with 20 000 available. */
  const heldPayout = async () => {
    const merchantId = await funded(20_000);
    const ref = payoutHold(newId('payout'));
    await ledger.hold({ ref, merchantId, mode: 'live', amount: 10_000, fee: 150 });
    return { merchantId, ref };
  };

  const holdStatusOf = async (ref: HoldRef) =>
    (await db.pool.query(`SELECT status FROM ledger_holds WHERE ref = $1`, [ref])).rows[0]?.status;

  beforeAll(async () => {
    // More connections than the default, so more of the concurrent reversals really overlap.
    db = await createLedgerDatabase(30);
    ledger = new Ledger(db.pool);
  });

  afterEach(async () => {
    if (db) await expectLedgerBalanced(db.pool);
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('gives a settled payout its amount and fee back to available', async () => {
    const { merchantId, ref } = await heldPayout();
    await ledger.settleHold({ ref, to: 'payouts_sent' });

    const reversed = await ledger.reverseHold({ ref });

    expect(reversed).toEqual({
      ref,
      outcome: 'reversed',
      settledTo: 'payouts_sent',
      txnId: `${ref}:reversed`,
      posted: true,
    });
    // As before the hold: available whole, nothing sent, no fee kept.
    expect(await balancesOf(db.pool, merchantId, 'live')).toEqual({
      merchant_available: 20_000,
      merchant_pending: 0,
      payouts_sent: 0,
      platform_fees: 0,
      provider_clearing: -20_000,
    });
    // The hold stays settled: the reversal is its own transaction.
    expect(await holdStatusOf(ref)).toBe('settled');
    const { rows } = await db.pool.query(`SELECT kind FROM ledger_transactions WHERE txn_id = $1`, [
      `${ref}:reversed`,
    ]);
    expect(rows).toEqual([{ kind: 'reverse' }]);
  });

  it('reverses once, however often it is asked', async () => {
    const { merchantId, ref } = await heldPayout();
    await ledger.settleHold({ ref, to: 'payouts_sent' });

    const first = await ledger.reverseHold({ ref });
    const second = await ledger.reverseHold({ ref });

    expect(second).toEqual({ ...first, posted: false });
    expect((await balancesOf(db.pool, merchantId, 'live')).merchant_available).toBe(20_000);
    expect(await countRows(db.pool, 'ledger_entries', [`${ref}:reversed`])).toBe(3);
  });

  it('reverses once when 20 reversals arrive at the same time', async () => {
    const { merchantId, ref } = await heldPayout();
    await ledger.settleHold({ ref, to: 'payouts_sent' });

    const { values, errors } = await allSettled(
      Array.from({ length: 20 }, () => ledger.reverseHold({ ref })),
    );

    expect(errors).toEqual([]);
    expect(values.filter((v) => v.posted)).toHaveLength(1);
    expect(new Set(values.map((v) => v.outcome))).toEqual(new Set(['reversed']));
    expect(await balancesOf(db.pool, merchantId, 'live')).toMatchObject({
      merchant_available: 20_000,
      payouts_sent: 0,
      platform_fees: 0,
    });
    expect(await countRows(db.pool, 'ledger_transactions', [`${ref}:reversed`])).toBe(1);
  });

  it('releases a hold whose settle never happened', async () => {
    const { merchantId, ref } = await heldPayout();

    const reversed = await ledger.reverseHold({ ref });

    expect(reversed).toEqual({ ref, outcome: 'released', txnId: `${ref}:released`, posted: true });
    expect(await holdStatusOf(ref)).toBe('released');
    expect(await balancesOf(db.pool, merchantId, 'live')).toMatchObject({
      merchant_available: 20_000,
      merchant_pending: 0,
    });
    // A settle that comes after finds the hold released, and moves nothing.
    expect(await ledger.settleHold({ ref, to: 'payouts_sent' })).toEqual({
      ...reversed,
      posted: false,
    });
    expect(await countRows(db.pool, 'ledger_transactions', [`${ref}:reversed`])).toBe(0);
  });

  it('changes nothing for a released hold', async () => {
    const { merchantId, ref } = await heldPayout();
    await ledger.releaseHold({ ref });
    const before = await balancesOf(db.pool, merchantId, 'live');

    expect(await ledger.reverseHold({ ref })).toEqual({
      ref,
      outcome: 'released',
      txnId: `${ref}:released`,
      posted: false,
    });
    expect(await balancesOf(db.pool, merchantId, 'live')).toEqual(before);
    expect(await countRows(db.pool, 'ledger_transactions', [`${ref}:reversed`])).toBe(0);
  });

  it('is not_found for a hold never made', async () => {
    await expect(ledger.reverseHold({ ref: payoutHold(newId('payout')) })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('refuses what is not a hold ref', async () => {
    await expect(ledger.reverseHold({ ref: 'po_1' as HoldRef })).rejects.toMatchObject({
      code: 'validation_error',
    });
  });

  it('reverses a refund settled to the customer the same way', async () => {
    const merchantId = await funded(5_000, 'test');
    const ref = refundHold(newId('refund'));
    await ledger.hold({ ref, merchantId, mode: 'test', amount: 2_000 });
    await ledger.settleHold({ ref, to: 'customer_refunds' });

    expect(await ledger.reverseHold({ ref })).toEqual({
      ref,
      outcome: 'reversed',
      settledTo: 'customer_refunds',
      txnId: `${ref}:reversed`,
      posted: true,
    });
    expect(await balancesOf(db.pool, merchantId, 'test')).toEqual({
      merchant_available: 5_000,
      merchant_pending: 0,
      customer_refunds: 0,
      provider_clearing: -5_000,
    });
  });

  it('settle and reverse racing on a held hold: the money comes back once either way', async () => {
    const merchantId = await funded(50_000);
    const refs = Array.from({ length: 5 }, () => payoutHold(newId('payout')));
    for (const ref of refs) {
      await ledger.hold({ ref, merchantId, mode: 'live', amount: 1_000, fee: 10 });
    }

    const { errors } = await allSettled(
      refs.flatMap((ref) =>
        Array.from({ length: 10 }, (_, i) =>
          i % 2 === 0
            ? ledger.settleHold({ ref, to: 'payouts_sent' })
            : ledger.reverseHold({ ref }),
        ),
      ),
    );

    expect(errors).toEqual([]);
    // Released before any settle, or settled and then reversed: available is whole again.
    expect(await balancesOf(db.pool, merchantId, 'live')).toMatchObject({
      merchant_available: 50_000,
      merchant_pending: 0,
    });
    const endings = refs.flatMap((ref) => [`${ref}:released`, `${ref}:reversed`]);
    expect(await countRows(db.pool, 'ledger_transactions', endings)).toBe(5);
  });
});
