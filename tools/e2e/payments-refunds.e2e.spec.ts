import { expectLedgerBalanced } from '@xaalis/ledger';
import { idempotencyKey } from './support/fixtures';
import { startInProcessService, type InProcessService } from './support/in-process-service';
import { merchantFactory, type TestMerchant } from './support/merchant';
import { refundHoldStatus, refundsOf } from './support/payment-records';
import {
  createRefund,
  eventually,
  expectBalance,
  expectError,
  expectEventually,
  getPayment,
  MAGIC_DECLINED_PHONE,
  newPayment,
  sleep,
  succeededPayment,
  testHelper,
  type PaymentObject,
} from './support/payments';

/** Sandbox refunds settle SANDBOX_SETTLE_MS after they are asked for, on the service's clock. */
const SETTLE_MS = 100;

/**
 * CONTRACT 5 refunds: asked for over HTTP, held from `available` at once (402 when short, the
 * fee is not given back), settled by the job worker once the sandbox's settlement time has passed.
 */
describe('payments over HTTP: refunds and the ledger', () => {
  let service: InProcessService;
  const newMerchant = merchantFactory(() => service.http);

  beforeAll(async () => {
    service = await startInProcessService({ SANDBOX_SETTLE_MS: String(SETTLE_MS) });
  });
  afterAll(async () => {
    try {
      if (service) await expectLedgerBalanced(service.db.pool);
    } finally {
      await service?.close();
    }
  });

  /**
   * Lets time pass on the service's clock, a second per look, until `done` holds: past the
   * settlement time, and past the backoff of a job that has to run again (the settlements of one
   * payment's refunds run side by side and may collide on its stream).
   */
  const afterSettling = <T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> =>
    eventually(async () => {
      service.clock.advance(1_000);
      return probe();
    }, done);
  const refundedBy = (key: string, payment: PaymentObject, amount: number) =>
    afterSettling(
      () => getPayment(service.http, key, payment.id),
      (seen) => seen.amount_refunded === amount,
    );

  /**
   * A merchant with `amount` paid (succeeded as `mock`, 1% fee) and its credit in, plus a second
   * payment of `funding` so that `available` covers refunds beyond the first one's net.
   */
  async function paidMerchant(
    amount: number,
    funding = 0,
    extra: Record<string, unknown> = {},
  ): Promise<{ merchant: TestMerchant; payment: PaymentObject; available: number }> {
    const merchant = await newMerchant();
    const payment = await succeededPayment(service.http, merchant.testKey, amount, extra);
    let available = payment.net as number;
    if (funding > 0)
      available += (await succeededPayment(service.http, merchant.testKey, funding)).net as number;
    await expectBalance(service.http, merchant.testKey, { available, pending: 0 });
    return { merchant, payment, available };
  }

  describe('what a refund request must be', () => {
    it('without an idempotency-key: 400 naming the header, nothing held', async () => {
      const { merchant, payment, available } = await paidMerchant(10_000, 10_000);
      const refused = await service.http.post('/v1/refunds', {
        bearer: merchant.testKey,
        body: { payment: payment.id },
      });
      expectError(refused, 400, 'validation_error', ['idempotency-key']);
      await expectBalance(service.http, merchant.testKey, { available, pending: 0 });
      expect(await refundsOf(service.db.pool, payment.id)).toEqual([]);
    });

    it.each([
      ['amount 0', { amount: 0 }, 'amount'],
      ['amount 1.5', { amount: 1.5 }, 'amount'],
      ['amount "100"', { amount: '100' }, 'amount'],
      ['no payment', { payment: undefined }, 'payment'],
      ['an unknown field', { reason: 'requested_by_customer' }, 'reason'],
    ])('%s: 400 validation_error', async (_name, change, field) => {
      const { merchant, payment } = await paidMerchant(1_000);
      const refused = await service.http.post('/v1/refunds', {
        bearer: merchant.testKey,
        idempotencyKey: idempotencyKey(),
        body: { payment: payment.id, ...change },
      });
      expectError(refused, 400, 'validation_error', [field]);
      expect(await refundsOf(service.db.pool, payment.id)).toEqual([]);
    });

    it("an unknown payment, another merchant's, the other mode's: 404 not_found", async () => {
      const { merchant, payment } = await paidMerchant(1_000);
      const other = await newMerchant();
      expectError(
        await createRefund(service.http, merchant.testKey, {
          payment: 'pay_01NOSUCHPAYMENT0000000000',
        }),
        404,
        'not_found',
      );
      expectError(
        await createRefund(service.http, other.testKey, { payment: payment.id }),
        404,
        'not_found',
      );
      expectError(
        await createRefund(service.http, merchant.liveKey, { payment: payment.id }),
        404,
        'not_found',
      );
      expect(await refundsOf(service.db.pool, payment.id)).toEqual([]);
    });

    it('only a succeeded payment: 409 invalid_state from requires_payment_method, processing, failed, expired', async () => {
      const merchant = await newMerchant();
      const key = merchant.testKey;
      const open = await newPayment(service.http, key, { amount: 1_000 });
      const processing = await newPayment(service.http, key, { amount: 1_000, provider: 'wave' });
      const failed = await newPayment(service.http, key, { amount: 1_000 });
      await testHelper(service.http, key, failed.id, 'fail');
      const expired = await newPayment(service.http, key, { amount: 1_000 });
      await testHelper(service.http, key, expired.id, 'expire');
      for (const payment of [open, processing, failed, expired]) {
        expectError(
          await createRefund(service.http, key, { payment: payment.id }),
          409,
          'invalid_state',
        );
        expectError(
          await createRefund(service.http, key, { payment: payment.id, amount: 1 }),
          409,
          'invalid_state',
        );
      }
    });
  });

  describe('refunding', () => {
    it('the full amount by default: pending and held, then refunded after the settle time', async () => {
      const { merchant, payment, available } = await paidMerchant(10_000, 10_000);
      expect(available).toBe(19_800);
      const refund = await createRefund(service.http, merchant.testKey, { payment: payment.id });
      expect(refund.status).toBe(201);
      expect(refund.body).toEqual({
        object: 'refund',
        id: expect.stringMatching(/^re_[0-9A-Za-z]{20,}$/),
        payment: payment.id,
        amount: 10_000,
        status: 'pending',
        failure_reason: null,
        created_at: service.clock.now().toISOString(),
      });
      // Held at once: the whole amount leaves `available`, the fee is not given back.
      await expectBalance(service.http, merchant.testKey, { available: 9_800, pending: 10_000 });
      expect(await getPayment(service.http, merchant.testKey, payment.id)).toEqual(payment);
      // Nothing is left to refund while it is pending.
      expectError(
        await createRefund(service.http, merchant.testKey, { payment: payment.id, amount: 1 }),
        409,
        'invalid_state',
      );
      // Until the settlement time has passed on the clock, it stays pending (the worker polls every 200 ms).
      await sleep(600);
      expect(await getPayment(service.http, merchant.testKey, payment.id)).toEqual(payment);
      expect(await refundHoldStatus(service.db.pool, refund.body.id)).toBe('held');
      await expectEventually(
        () => refundsOf(service.db.pool, payment.id),
        [{ refundId: refund.body.id, amount: 10_000, status: 'pending', failureReason: null }],
      );

      const refunded = await refundedBy(merchant.testKey, payment, 10_000);
      expect(refunded).toEqual({ ...payment, status: 'refunded', amount_refunded: 10_000 });
      await expectBalance(service.http, merchant.testKey, { available: 9_800, pending: 0 });
      expect(await refundHoldStatus(service.db.pool, refund.body.id)).toBe('settled');
      await expectEventually(
        () => refundsOf(service.db.pool, payment.id),
        [{ refundId: refund.body.id, amount: 10_000, status: 'succeeded', failureReason: null }],
      );
      expectError(
        await createRefund(service.http, merchant.testKey, { payment: payment.id, amount: 1 }),
        409,
        'invalid_state',
      );
    });

    it('partial amounts add up; more than what is left is 400; the payment is refunded once they reach its amount', async () => {
      const { merchant, payment } = await paidMerchant(10_000, 10_000);
      const key = merchant.testKey;
      const first = await createRefund(service.http, key, { payment: payment.id, amount: 3_000 });
      const second = await createRefund(service.http, key, { payment: payment.id, amount: 5_000 });
      expect([first.status, first.body.amount, second.status, second.body.amount]).toEqual([
        201, 3_000, 201, 5_000,
      ]);
      expectError(
        await createRefund(service.http, key, { payment: payment.id, amount: 2_001 }),
        400,
        'validation_error',
        ['amount'],
      );
      expectError(
        await createRefund(service.http, key, { payment: payment.id, amount: 10_001 }),
        400,
        'validation_error',
        ['amount'],
      );
      await expectBalance(service.http, key, { available: 19_800 - 8_000, pending: 8_000 });

      // CONTRACT 5: refunds that reached the customer leave the payment `succeeded` until they
      // add up to its amount; what is left can still be refunded.
      const partly = await refundedBy(key, payment, 8_000);
      expect(partly).toMatchObject({ status: 'succeeded', amount_refunded: 8_000 });
      await expectBalance(service.http, key, { available: 11_800, pending: 0 });
      const rest = await createRefund(service.http, key, { payment: payment.id });
      expect([rest.status, rest.body.amount]).toEqual([201, 2_000]);
      const refunded = await refundedBy(key, payment, 10_000);
      expect(refunded).toMatchObject({ status: 'refunded', amount_refunded: 10_000 });
      await expectBalance(service.http, key, { available: 9_800, pending: 0 });
      // `refunded` is final (spec 3.1).
      expectError(
        await createRefund(service.http, key, { payment: payment.id, amount: 1 }),
        409,
        'invalid_state',
      );
    });

    it('more than the payment: 400 on amount, nothing held', async () => {
      const { merchant, payment, available } = await paidMerchant(10_000, 50_000);
      expectError(
        await createRefund(service.http, merchant.testKey, { payment: payment.id, amount: 10_001 }),
        400,
        'validation_error',
        ['amount'],
      );
      await expectBalance(service.http, merchant.testKey, { available, pending: 0 });
      expect(await refundsOf(service.db.pool, payment.id)).toEqual([]);
    });

    it('larger than available (a lone payment: net < amount): 402 insufficient_funds, payment and balance unchanged', async () => {
      const merchant = await newMerchant();
      const payment = await newPayment(service.http, merchant.testKey, {
        amount: 10_000,
        provider: 'wave',
      });
      const paid = await testHelper(service.http, merchant.testKey, payment.id, 'succeed');
      await expectBalance(service.http, merchant.testKey, { available: 9_900, pending: 0 });

      const key = idempotencyKey();
      const short = await createRefund(
        service.http,
        merchant.testKey,
        { payment: payment.id },
        { idempotencyKey: key },
      );
      expectError(short, 402, 'insufficient_funds');
      expect(await getPayment(service.http, merchant.testKey, payment.id)).toEqual(paid);
      await expectBalance(service.http, merchant.testKey, { available: 9_900, pending: 0 });
      // CONTRACT 3: a 402 is the client's for good, so it is replayed as it was.
      const replayed = await createRefund(
        service.http,
        merchant.testKey,
        { payment: payment.id },
        { idempotencyKey: key },
      );
      expect([replayed.status, replayed.text, replayed.headers.get('idempotent-replayed')]).toEqual(
        [402, short.text, 'true'],
      );

      // Exactly what is available can be refunded.
      const fits = await createRefund(service.http, merchant.testKey, {
        payment: payment.id,
        amount: 9_900,
      });
      expect([fits.status, fits.body.status]).toEqual([201, 'pending']);
      await expectBalance(service.http, merchant.testKey, { available: 0, pending: 9_900 });
      expect(await refundedBy(merchant.testKey, payment, 9_900)).toMatchObject({
        status: 'succeeded',
      });
      await expectBalance(service.http, merchant.testKey, { available: 0, pending: 0 });
      await expectEventually(
        () => refundsOf(service.db.pool, payment.id),
        [
          expect.objectContaining({
            amount: 10_000,
            status: 'failed',
            failureReason: 'insufficient_funds',
          }),
          expect.objectContaining({ amount: 9_900, status: 'succeeded' }),
        ],
      );
    });

    it(`to the magic phone ${MAGIC_DECLINED_PHONE}: fails with recipient_refused, the balance comes back`, async () => {
      const { merchant, payment, available } = await paidMerchant(10_000, 0, {
        customer: { phone: MAGIC_DECLINED_PHONE },
      });
      const refund = await createRefund(service.http, merchant.testKey, {
        payment: payment.id,
        amount: 4_000,
      });
      expect([refund.status, refund.body.status]).toEqual([201, 'pending']);
      await expectBalance(service.http, merchant.testKey, {
        available: available - 4_000,
        pending: 4_000,
      });

      const settled = await afterSettling(
        () => refundsOf(service.db.pool, payment.id),
        // Settled: the refund is in the read model (its projection may lag) and no longer pending.
        (refunds) => refunds.length > 0 && refunds[0]!.status !== 'pending',
      );
      expect(settled).toEqual([
        {
          refundId: refund.body.id,
          amount: 4_000,
          status: 'failed',
          failureReason: 'recipient_refused',
        },
      ]);
      await expectBalance(service.http, merchant.testKey, { available, pending: 0 });
      expect(await refundHoldStatus(service.db.pool, refund.body.id)).toBe('released');
      expect(await getPayment(service.http, merchant.testKey, payment.id)).toEqual(payment);
    });

    it('the same idempotency key and body: the same refund, held once; another body: 409', async () => {
      const { merchant, payment, available } = await paidMerchant(10_000, 10_000);
      const key = idempotencyKey();
      const first = await createRefund(
        service.http,
        merchant.testKey,
        { payment: payment.id, amount: 1_000 },
        { idempotencyKey: key },
      );
      const again = await createRefund(
        service.http,
        merchant.testKey,
        { payment: payment.id, amount: 1_000 },
        { idempotencyKey: key },
      );
      expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([
        201,
        201,
        'true',
      ]);
      expect(again.text).toBe(first.text);
      expectError(
        await createRefund(
          service.http,
          merchant.testKey,
          { payment: payment.id, amount: 2_000 },
          { idempotencyKey: key },
        ),
        409,
        'idempotency_conflict',
      );
      await expectBalance(service.http, merchant.testKey, {
        available: available - 1_000,
        pending: 1_000,
      });
      await expectEventually(
        () => refundsOf(service.db.pool, payment.id),
        [expect.objectContaining({ refundId: first.body.id, amount: 1_000, status: 'pending' })],
      );
    });
  });

  describe('concurrent refunds of one payment', () => {
    /**
     * `count` refunds of `amount` at once, each with its own key; then each answer that was a 5xx
     * is retried with its key, as a client does (CONTRACT 3 stores no 5xx), until it is not.
     */
    async function refundBurst(key: string, payment: string, amount: number, count: number) {
      const keys = Array.from({ length: count }, () => idempotencyKey());
      const send = (idempotency: string) =>
        createRefund(service.http, key, { payment, amount }, { idempotencyKey: idempotency });
      const burst = await Promise.all(keys.map(send));
      const settled = [...burst];
      for (let i = 0; i < count; i++) {
        for (let attempt = 0; settled[i]!.status >= 500 && attempt < 5; attempt++)
          settled[i] = await send(keys[i]!);
      }
      return { burst, settled };
    }

    it('10 × 1 500 on 10 000: never more than the amount (6 accepted, the rest 400)', async () => {
      const { merchant, payment, available } = await paidMerchant(10_000, 100_000);
      const { settled } = await refundBurst(merchant.testKey, payment.id, 1_500, 10);
      expect(settled.filter((answer) => answer.status === 201)).toHaveLength(6);
      for (const answer of settled.filter((a) => a.status !== 201)) {
        expectError(answer, 400, 'validation_error', ['amount']);
      }
      await expectBalance(service.http, merchant.testKey, {
        available: available - 9_000,
        pending: 9_000,
      });

      const refunded = await refundedBy(merchant.testKey, payment, 9_000);
      expect(refunded).toMatchObject({ status: 'succeeded', amount_refunded: 9_000 });
      await expectBalance(service.http, merchant.testKey, {
        available: available - 9_000,
        pending: 0,
      });
    });

    it('10 × 1 000 against 9 900 available: never below zero (9 accepted, one 402)', async () => {
      const { merchant, payment, available } = await paidMerchant(10_000);
      expect(available).toBe(9_900);
      const { settled } = await refundBurst(merchant.testKey, payment.id, 1_000, 10);
      expect(settled.filter((answer) => answer.status === 201)).toHaveLength(9);
      for (const answer of settled.filter((a) => a.status !== 201))
        expectError(answer, 402, 'insufficient_funds');
      await expectBalance(service.http, merchant.testKey, { available: 900, pending: 9_000 });

      const refunded = await refundedBy(merchant.testKey, payment, 9_000);
      expect(refunded).toMatchObject({ status: 'succeeded', amount_refunded: 9_000 });
      await expectBalance(service.http, merchant.testKey, { available: 900, pending: 0 });
    });

    it('10 valid refunds at once are all accepted, none is a 500', async () => {
      const { merchant, payment, available } = await paidMerchant(10_000, 10_000);
      const { burst } = await refundBurst(merchant.testKey, payment.id, 100, 10);
      // Every refund appends to the payment's stream: conflicts are retried, never a 500.
      expect(burst.map((answer) => answer.status)).toEqual(burst.map(() => 201));
      await expectBalance(service.http, merchant.testKey, {
        available: available - 1_000,
        pending: 1_000,
      });
    });
  });

  describe('refunds as resources', () => {
    const getRefund = (key: string, id: string) =>
      service.http.get(`/v1/refunds/${id}`, { bearer: key });
    const listRefunds = (key: string, query: string) =>
      service.http.get(`/v1/refunds${query}`, { bearer: key });

    it('GET /v1/refunds/{id}: at once after its creation, then settled, with the failure reason of a failed one', async () => {
      const { merchant, payment } = await paidMerchant(10_000, 10_000);
      const key = merchant.testKey;
      const created = await createRefund(service.http, key, { payment: payment.id, amount: 2_500 });
      expect(created.status).toBe(201);

      const read = await getRefund(key, created.body.id);
      expect([read.status, read.body]).toEqual([200, created.body]);
      expect(read.body).toEqual({
        object: 'refund',
        id: created.body.id,
        payment: payment.id,
        amount: 2_500,
        status: 'pending',
        failure_reason: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      const settled = await afterSettling(
        () => getRefund(key, created.body.id),
        (seen) => seen.body.status !== 'pending',
      );
      expect(settled.body).toEqual({ ...created.body, status: 'succeeded' });

      const declined = await paidMerchant(10_000, 0, { customer: { phone: MAGIC_DECLINED_PHONE } });
      const refused = await createRefund(service.http, declined.merchant.testKey, {
        payment: declined.payment.id,
        amount: 4_000,
      });
      const failed = await afterSettling(
        () => getRefund(declined.merchant.testKey, refused.body.id),
        (seen) => seen.body.status !== 'pending',
      );
      expect(failed.body).toMatchObject({ status: 'failed', failure_reason: 'recipient_refused' });
    });

    it("GET /v1/refunds/{id}: another merchant's, the other mode's, an unknown one: 404 not_found", async () => {
      const { merchant, payment } = await paidMerchant(10_000, 10_000);
      const created = await createRefund(service.http, merchant.testKey, { payment: payment.id });
      const other = await newMerchant();
      expectError(await getRefund(other.testKey, created.body.id), 404, 'not_found');
      expectError(await getRefund(merchant.liveKey, created.body.id), 404, 'not_found');
      expectError(
        await getRefund(merchant.testKey, 're_01JF0000000000000000000000'),
        404,
        'not_found',
      );
      expectError(await getRefund(merchant.testKey, 'pay_' + 'x'.repeat(30)), 404, 'not_found');
    });

    it('GET /v1/refunds: newest first, of one payment with `payment`, in pages', async () => {
      const { merchant, payment } = await paidMerchant(10_000, 10_000);
      const key = merchant.testKey;
      const second = await succeededPayment(service.http, key, 5_000);
      const mine: string[] = [];
      for (const amount of [1_000, 2_000, 3_000]) {
        mine.push((await createRefund(service.http, key, { payment: payment.id, amount })).body.id);
      }
      const theirs = (await createRefund(service.http, key, { payment: second.id, amount: 500 }))
        .body.id;

      const all = await listRefunds(key, '');
      expect(all.body.data.map((refund: { id: string }) => refund.id)).toEqual([
        theirs,
        ...[...mine].reverse(),
      ]);
      const ofPayment = await listRefunds(key, `?payment=${payment.id}`);
      expect(ofPayment.body).toEqual({
        object: 'list',
        data: [...mine].reverse().map((id) => expect.objectContaining({ id, payment: payment.id })),
        has_more: false,
      });

      const first = await listRefunds(key, `?payment=${payment.id}&limit=2`);
      expect([first.body.data.map((r: { id: string }) => r.id), first.body.has_more]).toEqual([
        [mine[2], mine[1]],
        true,
      ]);
      const next = await listRefunds(
        key,
        `?payment=${payment.id}&limit=2&starting_after=${mine[1]}`,
      );
      expect([next.body.data.map((r: { id: string }) => r.id), next.body.has_more]).toEqual([
        [mine[0]],
        false,
      ]);

      const other = (await newMerchant()).testKey;
      expect((await listRefunds(other, '')).body.data).toEqual([]);
      // CONTRACT 4: a cursor that is not one of the caller's refunds is a 404.
      expectError(await listRefunds(other, `?starting_after=${mine[1]}`), 404, 'not_found');
      expectError(await listRefunds(key, '?starting_after=re_unknown'), 404, 'not_found');
      expectError(await listRefunds(key, '?payment=nope'), 400, 'validation_error', ['payment']);
      expectError(await listRefunds(key, '?limit=0'), 400, 'validation_error', ['limit']);
    });
  });
});
