import type { INestApplication } from '@nestjs/common';
import { InProcessBroker } from '@xaalis/bus';
import { BUS_CLIENT, loadConfig } from '@xaalis/config';
import {
  PAYOUTS_BALANCE_GET,
  PAYOUTS_PAYOUT_CREATE,
  PAYOUTS_PAYOUT_GET,
  request,
  topicOf,
  validateIntegrationEvent,
  type BusRequester,
  type CreatePayoutRequest,
  type IntegrationEvent,
  type PayoutReply,
} from '@xaalis/contracts';
import { newPaymentObject } from '@xaalis/contracts/testing';
import { statusFor } from '@xaalis/http';
import { DomainError, newId, randomToken } from '@xaalis/kernel';
import { expectLedgerBalanced, Ledger } from '@xaalis/ledger';
import { payoutHold } from '@xaalis/ledger-domain';
import {
  createThrowawayDatabase,
  describeWithPostgres,
  type ThrowawayDatabase,
} from '@xaalis/pg-testing';
import { bootApp, createInfrastructure, type Infrastructure } from '@xaalis/runtime';
import { PayoutsModule } from './payouts.module';

/**
 * `payouts.payout.create` (the exchange paying `receive_amount` out from its own account): the
 * payouts app booted alone on a throwaway database, asked over the in-process bus as the exchange
 * will ask it. The hold comes first and once, a retry answers the same payout, and the sandbox
 * ends it as it ends an agent's: the ledger settles or gives back, `payout.*` is published.
 */

// Long enough for a retry right after the creation to find the payout still in flight.
const SETTLE_MS = 1_000;
const PHONE = '+221771234567';
const REFUSED_PHONE = '+221700000002';

describeWithPostgres('payouts.payout.create: a payout without an agent wallet', () => {
  let db: ThrowawayDatabase;
  let infra: Infrastructure;
  let app: INestApplication;
  let bus: BusRequester;
  let broker: InProcessBroker;
  /** What the exchange would hear: every `payout.succeeded` and `payout.failed`, as sent. */
  const published: unknown[] = [];

  beforeAll(async () => {
    db = await createThrowawayDatabase({ prefix: 'int_payout_create', poolMax: 2 });
    const config = loadConfig({
      LOG_LEVEL: 'error',
      SECRET_HASH_KEY: randomToken(48),
      AUTH_SECRET: randomToken(48),
      DATABASE_URL: db.url,
      SANDBOX_SETTLE_MS: String(SETTLE_MS),
    });
    infra = await createInfrastructure(config, { applicationName: 'int-payout-create' });
    broker = new InProcessBroker();
    for (const type of ['payout.succeeded', 'payout.failed'] as const) {
      broker.subscribe(topicOf(type), 'exchange', async (json) => {
        published.push(JSON.parse(json));
      });
    }
    app = await bootApp({
      app: 'payouts',
      module: PayoutsModule,
      infra,
      bus: { broker },
      logger: false,
    });
    bus = app.get(BUS_CLIENT);
  });

  afterAll(async () => {
    try {
      if (infra) await expectLedgerBalanced(infra.pool);
    } finally {
      await app?.close();
      await infra?.close();
      await db?.drop();
    }
  });

  const newMerchant = () => newId('merchant');

  const payoutRequest = (
    merchantId: string,
    overrides: Partial<CreatePayoutRequest> = {},
  ): CreatePayoutRequest => ({
    merchant_id: merchantId,
    mode: 'test',
    payout_id: newId('payout'),
    provider: 'wave',
    amount: 20_000,
    recipient: { phone: PHONE, name: 'Awa Diop' },
    client_reference: newId('exchange'),
    ...overrides,
  });

  const create = (body: CreatePayoutRequest) => request(bus, PAYOUTS_PAYOUT_CREATE, body);

  const refusal = (body: CreatePayoutRequest): Promise<DomainError> =>
    create(body).then(
      () => {
        throw new Error('expected a refusal');
      },
      (error: unknown) => {
        if (!(error instanceof DomainError)) throw error;
        return error;
      },
    );

  const get = (merchantId: string, payoutId: string) =>
    request(bus, PAYOUTS_PAYOUT_GET, {
      merchant_id: merchantId,
      mode: 'test',
      payout_id: payoutId,
    });

  const balance = (merchantId: string) =>
    request(bus, PAYOUTS_BALANCE_GET, { merchant_id: merchantId, mode: 'test' });

  /** `payment.succeeded` as the payments app publishes it, handled by the ledger when this resolves. */
  const paymentSucceeded = (merchantId: string, paymentId: string, amount: number, fee: number) =>
    broker.publish(
      topicOf('payment.succeeded'),
      JSON.stringify({
        id: newId('event'),
        type: 'payment.succeeded',
        merchant_id: merchantId,
        livemode: false,
        created_at: new Date().toISOString(),
        source: { stream: `payment-${paymentId}`, revision: 2 },
        data: { object: newPaymentObject({ id: paymentId, amount, fee, net: amount - fee }) },
      }),
    );

  /** Puts `net` in the merchant's available balance, through a payment without fee. */
  const fund = (merchantId: string, net: number) =>
    paymentSucceeded(merchantId, newId('payment'), net, 0);

  /** The hold's row and every ledger transaction of the payout (the hold, its end). */
  async function ledgerOf(payoutId: string) {
    const ref = payoutHold(payoutId);
    const holds = await infra.pool.query<{ status: string; amount: string; fee: string }>(
      `SELECT status, amount::text, fee::text FROM ledger_holds WHERE ref = $1`,
      [ref],
    );
    const txns = await infra.pool.query<{ txn_id: string }>(
      `SELECT txn_id FROM ledger_transactions WHERE txn_id LIKE $1 ORDER BY txn_id`,
      [`${ref}%`],
    );
    return {
      holds: holds.rows.map((row) => ({
        ...row,
        amount: Number(row.amount),
        fee: Number(row.fee),
      })),
      transactions: txns.rows.map((row) => row.txn_id),
    };
  }

  async function paymentCredits(paymentId: string): Promise<number> {
    const { rows } = await infra.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_transactions WHERE txn_id = $1`,
      [`payment:${paymentId}`],
    );
    return rows[0]!.n;
  }

  const streamOf = async (payoutId: string) =>
    (await infra.store.readStream(`payout-${payoutId}`)).events.map((event) => event.type);

  /** Polls until `done` holds or 20 s pass; returns the last value for the assertion. */
  async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const value = await probe();
      if (done(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const publishedFor = (payoutId: string): IntegrationEvent[] =>
    published
      .map((payload) => validateIntegrationEvent(payload, 'payout.succeeded', 'payout.failed'))
      .filter((event) => (event.data.object as PayoutReply).id === payoutId);

  it('holds amount + fee first and creates a pending payout without a wallet; a retry answers it again, holding nothing more', async () => {
    const merchantId = newMerchant();
    await fund(merchantId, 100_000);
    const body = payoutRequest(merchantId);

    const first = await create(body);

    expect(first).toEqual({
      id: body.payout_id,
      object: 'payout',
      agent_wallet_id: null,
      agent_key_id: null,
      policy_version: null,
      livemode: false,
      amount: 20_000,
      fee: 200,
      currency: 'XOF',
      provider: 'wave',
      status: 'pending',
      recipient: { phone: PHONE, name: 'Awa Diop' },
      client_reference: body.client_reference,
      failure_reason: null,
      created_at: expect.any(String),
      updated_at: first.created_at,
    });
    expect(await balance(merchantId)).toEqual({ available: 79_800, pending: 20_200 });

    const retry = await create(body);

    expect(['pending', 'processing']).toContain(retry.status);
    expect(retry).toEqual({ ...first, status: retry.status, updated_at: retry.updated_at });
    expect(await balance(merchantId)).toEqual({ available: 79_800, pending: 20_200 });
    expect(await ledgerOf(body.payout_id)).toEqual({
      holds: [{ status: 'held', amount: 20_000, fee: 200 }],
      transactions: [payoutHold(body.payout_id)],
    });
    expect((await streamOf(body.payout_id))[0]).toBe('PayoutCreated');
    expect(
      (await streamOf(body.payout_id)).filter((type) => type === 'PayoutCreated'),
    ).toHaveLength(1);
  });

  it('a retry after a crash between the hold and the stream creates the payout and holds nothing more', async () => {
    const merchantId = newMerchant();
    await fund(merchantId, 50_000);
    const body = payoutRequest(merchantId, { amount: 10_000 });
    // What the first run did before it died: the hold, no stream.
    await app.get(Ledger).hold({
      ref: payoutHold(body.payout_id),
      merchantId,
      mode: 'test',
      amount: 10_000,
      fee: 100,
    });
    expect(await streamOf(body.payout_id)).toEqual([]);

    const payout = await create(body);

    expect(payout).toMatchObject({
      id: body.payout_id,
      amount: 10_000,
      fee: 100,
      status: 'pending',
    });
    expect(await balance(merchantId)).toEqual({ available: 39_900, pending: 10_100 });
    expect((await ledgerOf(body.payout_id)).transactions).toEqual([payoutHold(body.payout_id)]);
  });

  it('insufficient funds: 402 insufficient_funds, nothing held and no stream; the same id goes through once funded', async () => {
    const merchantId = newMerchant();
    await fund(merchantId, 10_000);
    // 9,950 + its fee of 100 (1 %, rounded half up) is 50 more than available.
    const body = payoutRequest(merchantId, { amount: 9_950 });

    const error = await refusal(body);

    expect(error.code).toBe('insufficient_funds');
    expect(statusFor(error.code)).toBe(402);
    expect(error.details).toEqual({ amount: 9_950, fee: 100, required: 10_050 });
    expect(await balance(merchantId)).toEqual({ available: 10_000, pending: 0 });
    expect(await ledgerOf(body.payout_id)).toEqual({ holds: [], transactions: [] });
    expect(await streamOf(body.payout_id)).toEqual([]);

    await fund(merchantId, 50);
    const payout = await create(body);

    expect(payout).toMatchObject({
      id: body.payout_id,
      amount: 9_950,
      fee: 100,
      status: 'pending',
    });
    expect(await balance(merchantId)).toEqual({ available: 0, pending: 10_050 });
  });

  it('the same payout id with another body is refused: idempotency_conflict, nothing more held', async () => {
    const merchantId = newMerchant();
    await fund(merchantId, 100_000);
    const body = payoutRequest(merchantId, { amount: 5_000 });
    await create(body);

    const error = await refusal({ ...body, amount: 6_000 });

    expect(error.code).toBe('idempotency_conflict');
    expect(await balance(merchantId)).toEqual({ available: 94_950, pending: 5_050 });
  });

  it("credit_first posts the funding payment's credit once, before the hold; its payment.succeeded later posts nothing more", async () => {
    const merchantId = newMerchant();
    const paymentId = newId('payment');
    const body = payoutRequest(merchantId, {
      amount: 20_000,
      credit_first: { id: paymentId, amount: 30_000, fee: 300 },
    });

    const payout = await create(body);

    expect(payout).toMatchObject({ amount: 20_000, fee: 200 });
    // 30,000 − 300 credited, then 20,000 + 200 held.
    expect(await balance(merchantId)).toEqual({ available: 9_500, pending: 20_200 });
    expect(await paymentCredits(paymentId)).toBe(1);

    await create(body);
    await paymentSucceeded(merchantId, paymentId, 30_000, 300);

    expect(await paymentCredits(paymentId)).toBe(1);
    expect(await balance(merchantId)).toEqual({ available: 9_500, pending: 20_200 });
    expect((await ledgerOf(body.payout_id)).transactions).toEqual([payoutHold(body.payout_id)]);
  });

  it('credit_first after payment.succeeded already came credits nothing more', async () => {
    const merchantId = newMerchant();
    const paymentId = newId('payment');
    await paymentSucceeded(merchantId, paymentId, 30_000, 300);

    await create(
      payoutRequest(merchantId, {
        amount: 20_000,
        credit_first: { id: paymentId, amount: 30_000, fee: 300 },
      }),
    );

    expect(await paymentCredits(paymentId)).toBe(1);
    expect(await balance(merchantId)).toEqual({ available: 9_500, pending: 20_200 });
  });

  it('test mode settles it: succeeded, the hold settled to payouts_sent, payout.succeeded published with the payout', async () => {
    const merchantId = newMerchant();
    await fund(merchantId, 100_000);
    const body = payoutRequest(merchantId, { provider: 'orange_money', amount: 30_000 });
    const created = await create(body);

    const events = await eventually(
      async () => publishedFor(body.payout_id),
      (seen) => seen.length > 0,
    );

    const payout = await get(merchantId, body.payout_id);
    expect(payout).toEqual({
      ...created,
      status: 'succeeded',
      updated_at: expect.any(String),
    });
    expect(Date.parse(payout.updated_at) - Date.parse(payout.created_at)).toBeGreaterThanOrEqual(
      SETTLE_MS,
    );
    expect(events).toEqual([
      expect.objectContaining({
        type: 'payout.succeeded',
        merchant_id: merchantId,
        livemode: false,
        data: { object: payout },
      }),
    ]);
    // The success is recorded first, then the hold settled (payout-outcomes.ts).
    const settled = await eventually(
      () => balance(merchantId),
      (seen) => seen.pending === 0,
    );
    expect(settled).toEqual({ available: 69_700, pending: 0 });
    expect(await ledgerOf(body.payout_id)).toEqual({
      holds: [{ status: 'settled', amount: 30_000, fee: 300 }],
      transactions: [payoutHold(body.payout_id), `${payoutHold(body.payout_id)}:settled`],
    });
    const row = await eventually(
      async () =>
        (
          await infra.pool.query<{ agent_wallet_id: string | null; status: string }>(
            `SELECT agent_wallet_id, status FROM payouts WHERE id = $1`,
            [body.payout_id],
          )
        ).rows[0],
      (seen) => seen?.status === 'succeeded',
    );
    expect(row).toEqual({ agent_wallet_id: null, status: 'succeeded' });

    // A retry once it ended answers it as it is, and moves no money.
    expect(await create(body)).toEqual(payout);
    expect(await balance(merchantId)).toEqual({ available: 69_700, pending: 0 });
  });

  it('+221700000002 is refused: failed, recipient_refused, amount + fee back in available, payout.failed published', async () => {
    const merchantId = newMerchant();
    await fund(merchantId, 100_000);
    const body = payoutRequest(merchantId, {
      amount: 25_000,
      recipient: { phone: REFUSED_PHONE },
    });
    await create(body);
    expect(await balance(merchantId)).toEqual({ available: 74_750, pending: 25_250 });

    const events = await eventually(
      async () => publishedFor(body.payout_id),
      (seen) => seen.length > 0,
    );

    const payout = await get(merchantId, body.payout_id);
    expect(payout).toMatchObject({
      status: 'failed',
      failure_reason: 'recipient_refused',
      agent_wallet_id: null,
      recipient: { phone: REFUSED_PHONE, name: null },
    });
    expect(events).toEqual([
      expect.objectContaining({ type: 'payout.failed', data: { object: payout } }),
    ]);
    // The failure is recorded first, then the hold released (payout-outcomes.ts).
    const released = await eventually(
      () => balance(merchantId),
      (seen) => seen.pending === 0,
    );
    expect(released).toEqual({ available: 100_000, pending: 0 });
    expect(await ledgerOf(body.payout_id)).toEqual({
      holds: [{ status: 'released', amount: 25_000, fee: 250 }],
      transactions: [payoutHold(body.payout_id), `${payoutHold(body.payout_id)}:released`],
    });
  });

  it('once every payout has ended, the ledger balances', async () => {
    const pending = await eventually(
      async () =>
        (
          await infra.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM ledger_holds WHERE status = 'held'`,
          )
        ).rows[0]!.n,
      (n) => n === 0,
    );
    expect(pending).toBe(0);
    await expect(expectLedgerBalanced(infra.pool)).resolves.toBeUndefined();
  });
});
