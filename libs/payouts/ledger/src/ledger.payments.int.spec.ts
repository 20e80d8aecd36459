import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PG_POOL } from '@xaalis/config';
import { createPrismaClient, type PrismaClient } from '@xaalis/database';
import { DomainError, newId } from '@xaalis/kernel';
import { describeWithPostgres, type ThrowawayDatabase } from '@xaalis/pg-testing';
import { BalanceReader } from './balance.reader';
import { Ledger } from './ledger';
import { expectLedgerBalanced } from './testing/expect-ledger-balanced';
import {
  allSettled,
  balancesOf,
  countRows,
  createLedgerDatabase,
  newMerchantId,
} from './testing/ledger-fixtures';

describeWithPostgres('Ledger: payments', () => {
  let db: ThrowawayDatabase;
  let prisma: PrismaClient;
  let ledger: Ledger;

  beforeAll(async () => {
    db = await createLedgerDatabase();
    prisma = createPrismaClient(db.pool);
    ledger = new Ledger(db.pool);
  });

  afterEach(async () => {
    if (db) await expectLedgerBalanced(db.pool);
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('credits the net to available, the fee to the platform, from provider clearing', async () => {
    const merchantId = newMerchantId();
    const paymentId = newId('payment');

    const result = await ledger.creditPayment({
      paymentId,
      merchantId,
      mode: 'test',
      amount: 10_000,
      fee: 150,
    });

    expect(result).toEqual({ txnId: `payment:${paymentId}`, posted: true });
    expect(await balancesOf(db.pool, merchantId, 'test')).toEqual({
      merchant_available: 9_850,
      platform_fees: 150,
      provider_clearing: -10_000,
    });
    expect(await new BalanceReader(prisma).balance(merchantId, 'test')).toEqual({
      available: 9_850,
      pending: 0,
    });
    const { rows } = await db.pool.query(
      `SELECT merchant_id, mode, kind FROM ledger_transactions WHERE txn_id = $1`,
      [`payment:${paymentId}`],
    );
    expect(rows).toEqual([{ merchant_id: merchantId, mode: 'test', kind: 'payment' }]);
  });

  it('credits a payment exactly once under 20 concurrent deliveries', async () => {
    const merchantId = newMerchantId();
    const paymentId = newId('payment');
    const credit = { paymentId, merchantId, mode: 'live' as const, amount: 25_000, fee: 375 };

    const { values, errors } = await allSettled(
      Array.from({ length: 20 }, () => ledger.creditPayment(credit)),
    );

    expect(errors).toEqual([]);
    expect(values.filter((v) => v.posted)).toHaveLength(1);
    expect(values.filter((v) => !v.posted)).toHaveLength(19);
    expect(await balancesOf(db.pool, merchantId, 'live')).toEqual({
      merchant_available: 24_625,
      platform_fees: 375,
      provider_clearing: -25_000,
    });
    expect(await countRows(db.pool, 'ledger_entries', [`payment:${paymentId}`])).toBe(3);
  });

  it('credits 40 payments of one merchant sent at once, each once, and none of their redeliveries', async () => {
    const merchantId = newMerchantId();
    const credits = Array.from({ length: 40 }, (_, n) => ({
      paymentId: newId('payment'),
      merchantId,
      mode: 'test' as const,
      amount: 1_000 + n,
      fee: 10,
    }));
    const gross = credits.reduce((sum, credit) => sum + credit.amount, 0);
    const expected = {
      merchant_available: gross - 400,
      platform_fees: 400,
      provider_clearing: -gross,
    };

    const first = await allSettled(credits.map((credit) => ledger.creditPayment(credit)));
    expect(first.errors).toEqual([]);
    expect(first.values.map((v) => v.posted)).toEqual(credits.map(() => true));
    expect(first.values.map((v) => v.txnId)).toEqual(
      credits.map((credit) => `payment:${credit.paymentId}`),
    );
    expect(await balancesOf(db.pool, merchantId, 'test')).toEqual(expected);

    const again = await allSettled(credits.map((credit) => ledger.creditPayment(credit)));
    expect(again.errors).toEqual([]);
    expect(again.values.map((v) => v.posted)).toEqual(credits.map(() => false));
    expect(await balancesOf(db.pool, merchantId, 'test')).toEqual(expected);
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_transactions WHERE merchant_id = $1 AND kind = 'payment'`,
      [merchantId],
    );
    expect(rows[0]!.n).toBe(40);
  });

  it('adds up several payments, and keeps test and live apart', async () => {
    const merchantId = newMerchantId();
    for (const [amount, fee] of [
      [1_000, 10],
      [2_000, 20],
      [3_000, 0],
    ]) {
      await ledger.creditPayment({
        paymentId: newId('payment'),
        merchantId,
        mode: 'test',
        amount,
        fee,
      });
    }
    await ledger.creditPayment({
      paymentId: newId('payment'),
      merchantId,
      mode: 'live',
      amount: 500,
      fee: 5,
    });

    const reader = new BalanceReader(prisma);
    expect(await reader.balance(merchantId, 'test')).toEqual({ available: 5_970, pending: 0 });
    expect(await reader.balance(merchantId, 'live')).toEqual({ available: 495, pending: 0 });
  });

  it('refuses the same payment id with another amount, and changes nothing', async () => {
    const merchantId = newMerchantId();
    const paymentId = newId('payment');
    await ledger.creditPayment({ paymentId, merchantId, mode: 'test', amount: 1_000, fee: 10 });

    const again = ledger.creditPayment({
      paymentId,
      merchantId,
      mode: 'test',
      amount: 2_000,
      fee: 10,
    });

    await expect(again).rejects.toMatchObject({ code: 'idempotency_conflict' });
    await expect(again).rejects.toBeInstanceOf(DomainError);
    expect((await balancesOf(db.pool, merchantId, 'test')).merchant_available).toBe(990);
  });

  it('credits payments sent at once with a conflicting repeat among them: that one alone is refused', async () => {
    const merchantId = newMerchantId();
    const credit = (paymentId: string, amount: number) =>
      ledger.creditPayment({ paymentId, merchantId, mode: 'test', amount, fee: 10 });
    const repeated = newId('payment');
    await credit(repeated, 1_000);

    // Sent while the first is on its way, so the other four go as one batch, the repeats in it.
    const outcomes = await Promise.allSettled([
      credit(newId('payment'), 500),
      credit(newId('payment'), 2_000),
      credit(repeated, 3_000),
      credit(repeated, 1_000),
      credit(newId('payment'), 4_000),
    ]);

    expect(
      outcomes.map((outcome) =>
        outcome.status === 'fulfilled'
          ? outcome.value.posted
          : (outcome.reason as DomainError).code,
      ),
    ).toEqual([true, true, 'idempotency_conflict', false, true]);
    expect(await balancesOf(db.pool, merchantId, 'test')).toEqual({
      merchant_available: 990 + 490 + 1_990 + 3_990,
      platform_fees: 40,
      provider_clearing: -7_500,
    });
  });

  it('refuses the same payment id for another merchant', async () => {
    const paymentId = newId('payment');
    const first = newMerchantId();
    const other = newMerchantId();
    await ledger.creditPayment({
      paymentId,
      merchantId: first,
      mode: 'test',
      amount: 1_000,
      fee: 0,
    });

    await expect(
      ledger.creditPayment({ paymentId, merchantId: other, mode: 'test', amount: 1_000, fee: 0 }),
    ).rejects.toMatchObject({ code: 'idempotency_conflict' });
    expect(await balancesOf(db.pool, other, 'test')).toEqual({});
  });

  it('the Prisma models read what the Ledger wrote (schema and migrations agree)', async () => {
    const merchantId = newMerchantId();
    const paymentId = newId('payment');
    await ledger.creditPayment({ paymentId, merchantId, mode: 'live', amount: 3_000, fee: 30 });
    const ref = `refund:${newId('refund')}` as const;
    await ledger.hold({ ref, merchantId, mode: 'live', amount: 1_000 });
    await ledger.settleHold({ ref, to: 'customer_refunds' });

    const txn = await prisma.ledgerTransaction.findUnique({
      where: { txnId: `payment:${paymentId}` },
      include: { entries: { orderBy: { account: 'asc' } } },
    });
    expect(txn).toMatchObject({
      merchantId,
      mode: 'live',
      kind: 'payment',
      createdAt: expect.any(Date),
    });
    expect(txn?.entries.map((e) => [e.account, e.amount])).toEqual([
      ['merchant_available', 2_970n],
      ['platform_fees', 30n],
      ['provider_clearing', -3_000n],
    ]);
    expect(
      await prisma.ledgerHold.findUnique({ where: { ref }, include: { transaction: true } }),
    ).toMatchObject({
      ref,
      amount: 1_000n,
      fee: 0n,
      status: 'settled',
      settledTo: 'customer_refunds',
      resolvedAt: expect.any(Date),
      transaction: { kind: 'hold', merchantId, mode: 'live' },
    });
  });

  it('Nest builds the Ledger on the PG_POOL provider', async () => {
    @Module({ providers: [{ provide: PG_POOL, useValue: db.pool }, Ledger] })
    class LedgerTestModule {}
    const app = await NestFactory.createApplicationContext(LedgerTestModule, { logger: false });
    try {
      const merchantId = newMerchantId();
      await app.get(Ledger).creditPayment({
        paymentId: newId('payment'),
        merchantId,
        mode: 'test',
        amount: 80,
        fee: 0,
      });
      expect((await balancesOf(db.pool, merchantId, 'test')).merchant_available).toBe(80);
    } finally {
      await app.close();
    }
  });

  it('refuses nonsense before touching the database', async () => {
    const paymentId = newId('payment');
    await expect(
      ledger.creditPayment({
        paymentId,
        merchantId: newMerchantId(),
        mode: 'test',
        amount: 100,
        fee: 101,
      }),
    ).rejects.toMatchObject({ code: 'validation_error' });
    expect(await countRows(db.pool, 'ledger_transactions', [`payment:${paymentId}`])).toBe(0);
  });
});
