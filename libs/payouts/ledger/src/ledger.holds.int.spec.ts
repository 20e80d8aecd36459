import { DomainError, newId, type Mode } from '@xaalis/kernel';
import { describeWithPostgres, type ThrowawayDatabase } from '@xaalis/pg-testing';
import { Ledger } from './ledger';
import { payoutHold, refundHold } from '@xaalis/ledger-domain';
import { expectLedgerBalanced } from './testing/expect-ledger-balanced';
import {
  allSettled,
  balancesOf,
  countRows,
  createLedgerDatabase,
  fundMerchant,
  newMerchantId,
} from './testing/ledger-fixtures';

describeWithPostgres('Ledger: holds', () => {
  let db: ThrowawayDatabase;
  let ledger: Ledger;

  /** A merchant with `available` XOF available in `mode`. */
  const funded = async (available: number, mode: Mode = 'test') => {
    const merchantId = newMerchantId();
    await fundMerchant(ledger, merchantId, mode, available);
    return merchantId;
  };

  beforeAll(async () => {
    // More connections than the default, so more of the concurrent postings really overlap.
    db = await createLedgerDatabase(30);
    ledger = new Ledger(db.pool);
  });

  afterEach(async () => {
    if (db) await expectLedgerBalanced(db.pool);
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('holds a refund: available to pending', async () => {
    const merchantId = await funded(5_000);
    const ref = refundHold(newId('refund'));

    expect(await ledger.hold({ ref, merchantId, mode: 'test', amount: 1_200 })).toEqual({
      txnId: ref,
      posted: true,
    });
    expect(await balancesOf(db.pool, merchantId, 'test')).toMatchObject({
      merchant_available: 3_800,
      merchant_pending: 1_200,
    });
  });

  it('holds all of the available balance', async () => {
    const merchantId = await funded(700);
    await ledger.hold({ ref: refundHold(newId('refund')), merchantId, mode: 'test', amount: 700 });
    expect(await balancesOf(db.pool, merchantId, 'test')).toMatchObject({
      merchant_available: 0,
      merchant_pending: 700,
    });
  });

  it('refuses a hold the available balance does not cover, and changes nothing', async () => {
    const merchantId = await funded(1_000);
    const ref = refundHold(newId('refund'));

    const attempt = ledger.hold({ ref, merchantId, mode: 'test', amount: 1_001 });

    await expect(attempt).rejects.toBeInstanceOf(DomainError);
    await expect(attempt).rejects.toMatchObject({ code: 'insufficient_funds' });
    expect(await balancesOf(db.pool, merchantId, 'test')).toEqual({
      merchant_available: 1_000,
      provider_clearing: -1_000,
    });
    expect(await countRows(db.pool, 'ledger_transactions', [ref])).toBe(0);
    expect(await countRows(db.pool, 'ledger_holds', [ref])).toBe(0);
  });

  it('refuses a hold for a merchant that never had a balance', async () => {
    const merchantId = newMerchantId();
    await expect(
      ledger.hold({ ref: payoutHold(newId('payout')), merchantId, mode: 'live', amount: 1 }),
    ).rejects.toMatchObject({ code: 'insufficient_funds' });
    expect(await balancesOf(db.pool, merchantId, 'live')).toEqual({});
  });

  it("counts only the balance of the hold's mode", async () => {
    const merchantId = await funded(10_000, 'live');
    await expect(
      ledger.hold({ ref: refundHold(newId('refund')), merchantId, mode: 'test', amount: 1 }),
    ).rejects.toMatchObject({ code: 'insufficient_funds' });
  });

  it('of 50 concurrent holds, exactly as many succeed as the balance covers', async () => {
    const merchantId = await funded(23_500);
    const refs = Array.from({ length: 50 }, () => payoutHold(newId('payout')));

    const { values, errors } = await allSettled(
      refs.map((ref) => ledger.hold({ ref, merchantId, mode: 'test', amount: 1_000 })),
    );

    expect(values).toHaveLength(23);
    expect(values.every((v) => v.posted)).toBe(true);
    expect(errors).toHaveLength(27);
    for (const error of errors) expect(error).toMatchObject({ code: 'insufficient_funds' });
    expect(await balancesOf(db.pool, merchantId, 'test')).toMatchObject({
      merchant_available: 500,
      merchant_pending: 23_000,
    });
    expect(await countRows(db.pool, 'ledger_holds', refs)).toBe(23);
    expect(await countRows(db.pool, 'ledger_transactions', refs)).toBe(23);
  });

  it('holds of several merchants asked at once (batched together): each balance covers its own', async () => {
    const merchants = [await funded(25_000), await funded(10_000), await funded(60_000)];
    const asked = merchants.flatMap((merchantId) =>
      Array.from({ length: 40 }, () => ({ merchantId, ref: payoutHold(newId('payout')) })),
    );
    const jobs = (ref: string) => [{ kind: 'test.hold', reference: ref, dueAt: new Date() }];

    const { values, errors } = await allSettled(
      asked.map(({ merchantId, ref }) =>
        ledger.hold(
          { ref, merchantId, mode: 'test', amount: 1_000, fee: 10 },
          undefined,
          jobs(ref),
        ),
      ),
    );

    // 1,010 a hold: 24, 9 and 40 holds fit.
    expect(values).toHaveLength(24 + 9 + 40);
    expect(errors).toHaveLength(120 - 73);
    for (const error of errors) expect(error).toMatchObject({ code: 'insufficient_funds' });
    for (const [merchantId, held] of [
      [merchants[0]!, 24],
      [merchants[1]!, 9],
      [merchants[2]!, 40],
    ] as const) {
      const balances = await balancesOf(db.pool, merchantId, 'test');
      expect(balances.merchant_pending).toBe(held * 1_010);
      expect(balances.merchant_available).toBeGreaterThanOrEqual(0);
    }
    // A hold's jobs are written exactly when the hold is.
    const { rows } = await db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM jobs WHERE kind = 'test.hold'`,
    );
    expect(Number(rows[0]!.n)).toBe(73);
  });

  it('holds a ref once, however often it is asked, even concurrently', async () => {
    const merchantId = await funded(10_000);
    const ref = refundHold(newId('refund'));

    const { values, errors } = await allSettled(
      Array.from({ length: 20 }, () => ledger.hold({ ref, merchantId, mode: 'test', amount: 400 })),
    );

    expect(errors).toEqual([]);
    expect(values.filter((v) => v.posted)).toHaveLength(1);
    expect(await balancesOf(db.pool, merchantId, 'test')).toMatchObject({
      merchant_available: 9_600,
      merchant_pending: 400,
    });
  });

  it('a repeated hold is a no-op even when the balance no longer covers it', async () => {
    const merchantId = await funded(1_000);
    const ref = refundHold(newId('refund'));
    await ledger.hold({ ref, merchantId, mode: 'test', amount: 800 });

    expect(await ledger.hold({ ref, merchantId, mode: 'test', amount: 800 })).toEqual({
      txnId: ref,
      posted: false,
    });
  });

  it('refuses a ref held before with another amount', async () => {
    const merchantId = await funded(1_000);
    const ref = refundHold(newId('refund'));
    await ledger.hold({ ref, merchantId, mode: 'test', amount: 100 });

    await expect(ledger.hold({ ref, merchantId, mode: 'test', amount: 200 })).rejects.toMatchObject(
      {
        code: 'idempotency_conflict',
      },
    );
    expect((await balancesOf(db.pool, merchantId, 'test')).merchant_pending).toBe(100);
  });

  it('settles a refund to the customer, once', async () => {
    const merchantId = await funded(5_000);
    const ref = refundHold(newId('refund'));
    await ledger.hold({ ref, merchantId, mode: 'test', amount: 2_000 });

    const first = await ledger.settleHold({ ref, to: 'customer_refunds' });
    const second = await ledger.settleHold({ ref, to: 'customer_refunds' });

    expect(first).toEqual({
      ref,
      outcome: 'settled',
      settledTo: 'customer_refunds',
      txnId: `${ref}:settled`,
      posted: true,
    });
    expect(second).toEqual({ ...first, posted: false });
    expect(await balancesOf(db.pool, merchantId, 'test')).toEqual({
      merchant_available: 3_000,
      merchant_pending: 0,
      customer_refunds: 2_000,
      provider_clearing: -5_000,
    });
  });

  it('releases a failed refund back to available, once', async () => {
    const merchantId = await funded(5_000);
    const ref = refundHold(newId('refund'));
    await ledger.hold({ ref, merchantId, mode: 'test', amount: 2_000 });

    const first = await ledger.releaseHold({ ref });
    const second = await ledger.releaseHold({ ref });

    expect(first).toEqual({ ref, outcome: 'released', txnId: `${ref}:released`, posted: true });
    expect(second).toEqual({ ...first, posted: false });
    expect(await balancesOf(db.pool, merchantId, 'test')).toMatchObject({
      merchant_available: 5_000,
      merchant_pending: 0,
    });
  });

  it('a settled hold is not released, and a released one not settled: each reports the first', async () => {
    const merchantId = await funded(5_000);
    const settled = refundHold(newId('refund'));
    const released = refundHold(newId('refund'));
    await ledger.hold({ ref: settled, merchantId, mode: 'test', amount: 1_000 });
    await ledger.hold({ ref: released, merchantId, mode: 'test', amount: 1_500 });
    await ledger.settleHold({ ref: settled, to: 'customer_refunds' });
    await ledger.releaseHold({ ref: released });

    expect(await ledger.releaseHold({ ref: settled })).toEqual({
      ref: settled,
      outcome: 'settled',
      settledTo: 'customer_refunds',
      txnId: `${settled}:settled`,
      posted: false,
    });
    expect(await ledger.settleHold({ ref: released, to: 'customer_refunds' })).toEqual({
      ref: released,
      outcome: 'released',
      txnId: `${released}:released`,
      posted: false,
    });
    expect(await balancesOf(db.pool, merchantId, 'test')).toMatchObject({
      merchant_available: 4_000,
      merchant_pending: 0,
      customer_refunds: 1_000,
    });
    expect(
      await countRows(db.pool, 'ledger_transactions', [
        `${settled}:released`,
        `${released}:settled`,
      ]),
    ).toBe(0);
  });

  it('settle and release racing on one hold: exactly one of them happens', async () => {
    const merchantId = await funded(50_000);
    const refs = Array.from({ length: 5 }, () => refundHold(newId('refund')));
    for (const ref of refs) await ledger.hold({ ref, merchantId, mode: 'test', amount: 1_000 });

    const outcomes = await Promise.all(
      refs.map(async (ref) => {
        const { values, errors } = await allSettled(
          Array.from({ length: 20 }, (_, i) =>
            i % 2 === 0
              ? ledger.settleHold({ ref, to: 'customer_refunds' })
              : ledger.releaseHold({ ref }),
          ),
        );
        expect(errors).toEqual([]);
        const winners = values.filter((v) => v.posted);
        expect(winners).toHaveLength(1);
        // Every caller, winner or not, is told the same outcome.
        expect(new Set(values.map((v) => v.outcome))).toEqual(new Set([winners[0]!.outcome]));
        return winners[0]!.outcome;
      }),
    );

    const settledCount = outcomes.filter((o) => o === 'settled').length;
    const releasedCount = outcomes.length - settledCount;
    expect(await balancesOf(db.pool, merchantId, 'test')).toMatchObject({
      merchant_available: 45_000 + releasedCount * 1_000,
      merchant_pending: 0,
      ...(settledCount > 0 ? { customer_refunds: settledCount * 1_000 } : {}),
    });
    const endings = refs.flatMap((ref) => [`${ref}:settled`, `${ref}:released`]);
    expect(await countRows(db.pool, 'ledger_transactions', endings)).toBe(5);
  });

  it('payments, holds, settlements and releases of one merchant all at once: no deadlock, sums add up', async () => {
    const merchantId = newMerchantId();
    // Each flow: a payment of 1 000 (fee 10), a hold of 600 on it, then settled or released.
    const flows = Array.from({ length: 40 }, (_, i) => async () => {
      await ledger.creditPayment({
        paymentId: newId('payment'),
        merchantId,
        mode: 'test',
        amount: 1_000,
        fee: 10,
      });
      const ref = i % 2 === 0 ? refundHold(newId('refund')) : payoutHold(newId('payout'));
      await ledger.hold({ ref, merchantId, mode: 'test', amount: 600 });
      return i % 4 === 3
        ? ledger.releaseHold({ ref })
        : ledger.settleHold({ ref, to: i % 2 === 0 ? 'customer_refunds' : 'payouts_sent' });
    });

    const { values, errors } = await allSettled(flows.map((flow) => flow()));

    expect(errors).toEqual([]);
    expect(values.every((v) => v.posted)).toBe(true);
    // 10 released, 20 refunds and 10 payouts settled, 600 each.
    expect(await balancesOf(db.pool, merchantId, 'test')).toEqual({
      merchant_available: 40 * 990 - 30 * 600,
      merchant_pending: 0,
      customer_refunds: 20 * 600,
      payouts_sent: 10 * 600,
      platform_fees: 40 * 10,
      provider_clearing: -40 * 1_000,
    });
  });

  it('payments, holds, settlements and releases from three processes at once: none deadlocks (one lock order)', async () => {
    const merchantId = await funded(10_000_000);
    const earlier = Array.from({ length: 300 }, () => payoutHold(newId('payout')));
    for (const ref of earlier) await ledger.hold({ ref, merchantId, mode: 'test', amount: 1_000 });

    // Three processes' ledgers, so no process's turn-taking orders another's postings. In their
    // entries a payment moves available then platform_fees, a hold available then pending, a
    // release pending then available, a settlement pending then platform_fees.
    const [crediting, holding, ending] = [1, 2, 3].map(() => new Ledger(db.pool));
    const { errors } = await allSettled([
      ...earlier.map((ref, i) =>
        i % 2 === 0
          ? ending!.releaseHold({ ref })
          : ending!.settleHold({ ref, to: 'payouts_sent' }),
      ),
      ...earlier.map(() =>
        holding!.hold({
          ref: payoutHold(newId('payout')),
          merchantId,
          mode: 'test',
          amount: 1_000,
        }),
      ),
      ...earlier.map(() =>
        crediting!.creditPayment({
          paymentId: newId('payment'),
          merchantId,
          mode: 'test',
          amount: 1_000,
          fee: 10,
        }),
      ),
    ]);

    expect(errors).toEqual([]);
    expect(await balancesOf(db.pool, merchantId, 'test')).toMatchObject({
      merchant_available: 10_000_000 - 150 * 1_000 - 300 * 1_000 + 300 * 990,
      merchant_pending: 300 * 1_000,
      payouts_sent: 150 * 1_000,
    });
  });

  it('settling or releasing a hold never made is not_found', async () => {
    const ref = payoutHold(newId('payout'));
    await expect(ledger.settleHold({ ref, to: 'payouts_sent' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(ledger.releaseHold({ ref })).rejects.toMatchObject({ code: 'not_found' });
  });

  describe('payout fees', () => {
    it('are held with the amount, and booked to the platform when the payout settles', async () => {
      const merchantId = await funded(20_000, 'live');
      const ref = payoutHold(newId('payout'));

      await ledger.hold({ ref, merchantId, mode: 'live', amount: 10_000, fee: 100 });
      expect(await balancesOf(db.pool, merchantId, 'live')).toMatchObject({
        merchant_available: 9_900,
        merchant_pending: 10_100,
      });

      await ledger.settleHold({ ref, to: 'payouts_sent' });
      expect(await balancesOf(db.pool, merchantId, 'live')).toEqual({
        merchant_available: 9_900,
        merchant_pending: 0,
        payouts_sent: 10_000,
        platform_fees: 100,
        provider_clearing: -20_000,
      });
    });

    it('come back with the amount when the payout fails', async () => {
      const merchantId = await funded(20_000, 'live');
      const ref = payoutHold(newId('payout'));
      await ledger.hold({ ref, merchantId, mode: 'live', amount: 10_000, fee: 100 });

      await ledger.releaseHold({ ref });

      expect(await balancesOf(db.pool, merchantId, 'live')).toMatchObject({
        merchant_available: 20_000,
        merchant_pending: 0,
      });
    });

    it('count against the available balance', async () => {
      const merchantId = await funded(10_000, 'live');
      await expect(
        ledger.hold({
          ref: payoutHold(newId('payout')),
          merchantId,
          mode: 'live',
          amount: 10_000,
          fee: 1,
        }),
      ).rejects.toMatchObject({ code: 'insufficient_funds', details: { amount: 10_000, fee: 1 } });
    });
  });
});
