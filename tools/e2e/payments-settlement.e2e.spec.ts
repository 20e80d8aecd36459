import {
  closeWithLedgerBalanced,
  startInProcessService,
  type InProcessService,
} from './support/in-process-service';
import { issueRestrictedKey, merchantFactory, type TestMerchant } from './support/merchant';
import { ledgerTransactionIds } from './support/payment-records';
import {
  clientSecretOf,
  eventually,
  eventuallyStatus,
  expectBalance,
  expectError,
  getPayment,
  newPayment,
  sleep,
  testHelper,
  type PaymentObject,
} from './support/payments';
import { rawRequest } from './support/raw-http';

type Helper = 'succeed' | 'fail' | 'expire';

/** Spec 3.1 and CONTRACT 6: test helpers, expiry by the clock, and the credit of each success. */
describe('payments over HTTP: settlement and time', () => {
  let service: InProcessService;
  const newMerchant = merchantFactory(() => service.http);
  const helper = (key: string, id: string, action: Helper) =>
    service.http.post(`/v1/test_helpers/payments/${id}/${action}`, { bearer: key });

  beforeAll(async () => {
    service = await startInProcessService();
  });
  afterAll(() => closeWithLedgerBalanced(service));

  describe('test helpers', () => {
    it('succeed: the updated payment (as mock without a provider), and available grows by net', async () => {
      const merchant = await newMerchant();
      const payment = await newPayment(service.http, merchant.testKey, { amount: 10_000 });
      const succeeded = await testHelper(service.http, merchant.testKey, payment.id, 'succeed');
      expect(succeeded).toEqual({
        ...payment,
        status: 'succeeded',
        provider: 'mock',
        fee: 100,
        net: 9_900,
        provider_transaction_id: expect.stringMatching(/^mock_/),
        succeeded_at: service.clock.now().toISOString(),
      });
      expect(await getPayment(service.http, merchant.testKey, payment.id)).toEqual(succeeded);
      await expectBalance(service.http, merchant.testKey, { available: 9_900, pending: 0 });
    });

    it("succeed of a processing payment keeps its provider's fee", async () => {
      const merchant = await newMerchant();
      const payment = await newPayment(service.http, merchant.testKey, {
        amount: 10_000,
        provider: 'orange_money',
      });
      const succeeded = await testHelper(service.http, merchant.testKey, payment.id, 'succeed');
      expect(succeeded).toMatchObject({
        status: 'succeeded',
        provider: 'orange_money',
        fee: 150,
        net: 9_850,
      });
      await expectBalance(service.http, merchant.testKey, { available: 9_850, pending: 0 });
    });

    it('fail: failed with failure_reason declined; nothing credited', async () => {
      const merchant = await newMerchant();
      const payment = await newPayment(service.http, merchant.testKey, {
        amount: 10_000,
        provider: 'wave',
      });
      const failed = await testHelper(service.http, merchant.testKey, payment.id, 'fail');
      expect(failed).toEqual({
        ...payment,
        status: 'failed',
        failure_reason: 'declined',
        next_action: { type: 'redirect', url: payment.checkout_url },
      });
      expect(await getPayment(service.http, merchant.testKey, payment.id)).toEqual(failed);
      await expectBalance(service.http, merchant.testKey, { available: 0, pending: 0 });
    });

    it('expire: expired; nothing credited', async () => {
      const merchant = await newMerchant();
      const payment = await newPayment(service.http, merchant.testKey, { amount: 10_000 });
      const expired = await testHelper(service.http, merchant.testKey, payment.id, 'expire');
      expect(expired).toEqual({ ...payment, status: 'expired' });
      expect(await getPayment(service.http, merchant.testKey, payment.id)).toEqual(expired);
      await expectBalance(service.http, merchant.testKey, { available: 0, pending: 0 });
    });

    it.each(['succeed', 'fail', 'expire'] as const)(
      '%s with a live key: 403 forbidden, on a live payment or a test one',
      async (action) => {
        const merchant = await newMerchant();
        const live = await newPayment(service.http, merchant.liveKey, { amount: 1_000 });
        const test = await newPayment(service.http, merchant.testKey, { amount: 1_000 });
        expectError(await helper(merchant.liveKey, live.id, action), 403, 'forbidden');
        expectError(await helper(merchant.liveKey, test.id, action), 403, 'forbidden');
        expect(await getPayment(service.http, merchant.liveKey, live.id)).toEqual(live);
        expect(await getPayment(service.http, merchant.testKey, test.id)).toEqual(test);
      },
    );

    it.each(['succeed', 'fail', 'expire'] as const)(
      "%s on another merchant's payment, or an unknown one: 404 not_found",
      async (action) => {
        const [merchant, other] = [await newMerchant(), await newMerchant()];
        const payment = await newPayment(service.http, merchant.testKey, { amount: 1_000 });
        expectError(await helper(other.testKey, payment.id, action), 404, 'not_found');
        expectError(
          await helper(merchant.testKey, 'pay_01NOSUCHPAYMENT0000000000', action),
          404,
          'not_found',
        );
        expect(await getPayment(service.http, merchant.testKey, payment.id)).toEqual(payment);
      },
    );

    it('a restricted key with payments:read only: 403', async () => {
      const merchant = await newMerchant();
      const payment = await newPayment(service.http, merchant.testKey, { amount: 1_000 });
      const reader = await issueRestrictedKey(merchant, ['payments:read']);
      expectError(await helper(reader, payment.id, 'succeed'), 403, 'forbidden');
      expect(await getPayment(service.http, merchant.testKey, payment.id)).toEqual(payment);
    });

    describe('moves between states', () => {
      let merchant: TestMerchant;
      beforeAll(async () => {
        merchant = await newMerchant();
      });

      it.each<[Helper, Helper]>([
        ['expire', 'succeed'],
        ['expire', 'fail'],
        ['fail', 'succeed'],
        ['fail', 'expire'],
        ['succeed', 'fail'],
        ['succeed', 'expire'],
      ])('%s, then %s: 409 invalid_state, the payment unchanged', async (first, then) => {
        const payment = await newPayment(service.http, merchant.testKey, { amount: 1_000 });
        const moved = await testHelper(service.http, merchant.testKey, payment.id, first);
        expectError(await helper(merchant.testKey, payment.id, then), 409, 'invalid_state');
        expect(await getPayment(service.http, merchant.testKey, payment.id)).toEqual(moved);
      });

      it.each<[Helper]>([['succeed'], ['fail'], ['expire']])(
        '%s twice: the second is a no-op 200 with the same object',
        async (action) => {
          const payment = await newPayment(service.http, merchant.testKey, { amount: 1_000 });
          const first = await helper(merchant.testKey, payment.id, action);
          const second = await helper(merchant.testKey, payment.id, action);
          expect([first.status, second.status]).toEqual([200, 200]);
          expect(second.text).toBe(first.text);
        },
      );
    });
  });

  describe('expiry by the clock (30 minutes)', () => {
    it('29 minutes: still open; 30: expired, untouched or processing; succeeded and failed ones never', async () => {
      const merchant = await newMerchant();
      const key = merchant.testKey;
      const untouched = await newPayment(service.http, key, { amount: 1_000 });
      const atCreation = await newPayment(service.http, key, { amount: 1_000, provider: 'wave' });
      const atPayStep = await newPayment(service.http, key, { amount: 1_000 });
      const chosen = await service.http.post(
        `/v1/public/payments/${atPayStep.id}/pay?cs=${clientSecretOf(atPayStep)}`,
        { body: { provider: 'orange_money' } },
      );
      expect(chosen.status).toBe(200);
      const succeeded = await newPayment(service.http, key, { amount: 1_000 });
      await testHelper(service.http, key, succeeded.id, 'succeed');
      const failed = await newPayment(service.http, key, { amount: 1_000 });
      await testHelper(service.http, key, failed.id, 'fail');
      const paidLate = await newPayment(service.http, key, { amount: 1_000, provider: 'wave' });

      service.clock.advance(29 * 60_000);
      // The worker polls every 200 ms: a second is several chances to expire too early.
      await sleep(1_000);
      const statuses = async () =>
        Promise.all(
          [untouched, atCreation, atPayStep, succeeded, failed, paidLate].map(
            async (payment) => (await getPayment(service.http, key, payment.id)).status,
          ),
        );
      expect(await statuses()).toEqual([
        'requires_payment_method',
        'processing',
        'processing',
        'succeeded',
        'failed',
        'processing',
      ]);
      // Paid in the last minute: it stays paid.
      const approved = await rawRequest(
        service.url,
        'POST',
        `/sandbox/wave/${paidLate.id}/approve?cs=${clientSecretOf(paidLate)}`,
      );
      expect(approved.status).toBe(303);

      service.clock.advance(60_000);
      const expired = ['expired', 'expired', 'expired', 'succeeded', 'failed', 'succeeded'];
      const after = await eventually(statuses, (seen) => seen.join() === expired.join());
      expect(after).toEqual(expired);
      const untouchedNow = await getPayment(service.http, key, untouched.id);
      expect(untouchedNow).toEqual({ ...untouched, status: 'expired' });

      // Much later, nothing has moved again.
      service.clock.advance(3 * 3_600_000);
      await sleep(500);
      expect(await statuses()).toEqual(expired);
      await expectBalance(service.http, key, { available: 990 + 990, pending: 0 });
    });

    it('an expired payment refuses the pay step: 409 invalid_state', async () => {
      const merchant = await newMerchant();
      const payment = await newPayment(service.http, merchant.testKey, { amount: 1_000 });
      service.clock.advance(30 * 60_000);
      const refused = await service.http.post(
        `/v1/public/payments/${payment.id}/pay?cs=${clientSecretOf(payment)}`,
        { body: { provider: 'wave' } },
      );
      expectError(refused, 409, 'invalid_state');
      await eventuallyStatus(service.http, merchant.testKey, payment.id, 'expired');
    });
  });

  describe('payment.succeeded credits net exactly once (seen in the ledger)', () => {
    const paymentTxns = async (merchantId: string) =>
      (await ledgerTransactionIds(service.db.pool, merchantId)).filter((id) =>
        id.startsWith('payment:'),
      );

    it('confirmed twice by the test helper: the second is a no-op, one ledger transaction', async () => {
      const merchant = await newMerchant();
      const payment = await newPayment(service.http, merchant.testKey, {
        amount: 10_000,
        provider: 'wave',
      });
      const first = await helper(merchant.testKey, payment.id, 'succeed');
      const second = await helper(merchant.testKey, payment.id, 'succeed');
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.body).toEqual(first.body);

      // A later success of the same merchant: once its credit is in, the first event's are too.
      const later = await newPayment(service.http, merchant.testKey, {
        amount: 5_000,
        provider: 'wave',
      });
      await testHelper(service.http, merchant.testKey, later.id, 'succeed');
      await expectBalance(service.http, merchant.testKey, { available: 9_900 + 4_950, pending: 0 });
      expect(await paymentTxns(merchant.merchantId)).toEqual(
        [`payment:${payment.id}`, `payment:${later.id}`].sort(),
      );
    });

    it('approved in the sandbox, then confirmed by 5 concurrent test helpers: one credit', async () => {
      const merchant = await newMerchant();
      const payment = await newPayment(service.http, merchant.testKey, {
        amount: 20_000,
        provider: 'orange_money',
      });
      const approved = await rawRequest(
        service.url,
        'POST',
        `/sandbox/orange_money/${payment.id}/approve?cs=${clientSecretOf(payment)}`,
      );
      expect(approved.status).toBe(303);
      const paid: PaymentObject = await getPayment(service.http, merchant.testKey, payment.id);
      const confirms = await Promise.all(
        Array.from({ length: 5 }, () => helper(merchant.testKey, payment.id, 'succeed')),
      );
      expect(confirms.map((confirm) => confirm.status)).toEqual([200, 200, 200, 200, 200]);
      for (const confirm of confirms) expect(confirm.body).toEqual(paid);

      const later = await newPayment(service.http, merchant.testKey, { amount: 1_000 });
      await testHelper(service.http, merchant.testKey, later.id, 'succeed');
      await expectBalance(service.http, merchant.testKey, { available: 19_700 + 990, pending: 0 });
      expect(await paymentTxns(merchant.merchantId)).toEqual(
        [`payment:${payment.id}`, `payment:${later.id}`].sort(),
      );
    });

    it('concurrent first confirmations of one open payment: one success, one credit', async () => {
      const merchant = await newMerchant();
      const payment = await newPayment(service.http, merchant.testKey, { amount: 7_000 });
      const confirms = await Promise.all(
        Array.from({ length: 8 }, () => helper(merchant.testKey, payment.id, 'succeed')),
      );
      expect(confirms.map((confirm) => confirm.status)).toEqual(confirms.map(() => 200));
      expect(new Set(confirms.map((confirm) => confirm.text)).size).toBe(1);
      await expectBalance(service.http, merchant.testKey, { available: 6_930, pending: 0 });
      expect(await paymentTxns(merchant.merchantId)).toEqual([`payment:${payment.id}`]);
    });
  });
});
