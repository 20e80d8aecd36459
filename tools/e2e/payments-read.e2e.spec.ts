import {
  closeWithLedgerBalanced,
  startInProcessService,
  type InProcessService,
} from './support/in-process-service';
import { issueRestrictedKey, merchantFactory, type TestMerchant } from './support/merchant';
import { expectError, newPayment, testHelper, type PaymentObject } from './support/payments';

/** Spec 4.1, CONTRACT 4 and 5: reading one payment and listing them. */
describe('payments over HTTP: reads and lists', () => {
  let service: InProcessService;
  const newMerchant = merchantFactory(() => service.http);
  const get = (key: string, path: string) => service.http.get(path, { bearer: key });

  beforeAll(async () => {
    service = await startInProcessService();
  });
  afterAll(() => closeWithLedgerBalanced(service));

  describe('GET /v1/payments/{id}', () => {
    let merchant: TestMerchant;
    let payment: PaymentObject;
    beforeAll(async () => {
      merchant = await newMerchant();
      payment = await newPayment(service.http, merchant.testKey, {
        amount: 3_000,
        description: 'Café Touba',
        metadata: { table: '3' },
      });
    });

    it('answers the payment as it was created', async () => {
      const got = await get(merchant.testKey, `/v1/payments/${payment.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(payment);
    });

    it("another merchant's payment: 404 not_found", async () => {
      const other = await newMerchant();
      expectError(await get(other.testKey, `/v1/payments/${payment.id}`), 404, 'not_found');
    });

    it("the other mode's key: 404 not_found, both ways", async () => {
      expectError(await get(merchant.liveKey, `/v1/payments/${payment.id}`), 404, 'not_found');
      const live = await newPayment(service.http, merchant.liveKey, { amount: 3_000 });
      expectError(await get(merchant.testKey, `/v1/payments/${live.id}`), 404, 'not_found');
    });

    it('an unknown id: 404 not_found', async () => {
      expectError(
        await get(merchant.testKey, '/v1/payments/pay_01NOSUCHPAYMENT0000000000'),
        404,
        'not_found',
      );
    });

    it('no key: 401 authentication_required', async () => {
      expectError(
        await service.http.get(`/v1/payments/${payment.id}`),
        401,
        'authentication_required',
      );
    });

    it('a restricted key without payments:read is 403 on read and list; with it, 200', async () => {
      const without = await issueRestrictedKey(merchant, ['balance:read']);
      expectError(await get(without, `/v1/payments/${payment.id}`), 403, 'forbidden');
      expectError(await get(without, '/v1/payments'), 403, 'forbidden');

      const reader = await issueRestrictedKey(merchant, ['payments:read']);
      const got = await get(reader, `/v1/payments/${payment.id}`);
      expect({ status: got.status, body: got.body }).toEqual({ status: 200, body: payment });
      expect((await get(reader, '/v1/payments')).status).toBe(200);
      // Read does not imply write.
      expectError(
        await service.http.post('/v1/payments', { bearer: reader, body: { amount: 100 } }),
        403,
        'forbidden',
      );
    });
  });

  describe('GET /v1/payments', () => {
    it('a list of the newest first; an empty merchant has an empty list', async () => {
      const merchant = await newMerchant();
      const empty = await get(merchant.testKey, '/v1/payments');
      expect({ status: empty.status, body: empty.body }).toEqual({
        status: 200,
        body: { object: 'list', data: [], has_more: false },
      });

      const created: PaymentObject[] = [];
      for (const amount of [100, 200, 300]) {
        created.push(await newPayment(service.http, merchant.testKey, { amount }));
      }
      const list = await get(merchant.testKey, '/v1/payments');
      expect(list.status).toBe(200);
      expect(list.body).toEqual({ object: 'list', data: [...created].reverse(), has_more: false });
    });

    it("lists only the caller's merchant and mode", async () => {
      const [one, two] = [await newMerchant(), await newMerchant()];
      const mine = await newPayment(service.http, one.testKey, { amount: 100 });
      await newPayment(service.http, two.testKey, { amount: 100 });
      await newPayment(service.http, one.liveKey, { amount: 100 });
      const list = await get(one.testKey, '/v1/payments');
      expect(list.body.data.map((p: PaymentObject) => p.id)).toEqual([mine.id]);
    });

    it.each([['0'], ['101'], ['-1'], ['ten'], ['1.5']])(
      'limit=%s: 400 validation_error on limit',
      async (limit) => {
        const merchant = await newMerchant();
        expectError(
          await get(merchant.testKey, `/v1/payments?limit=${limit}`),
          400,
          'validation_error',
          ['limit'],
        );
      },
    );

    it('limit 1 and 100 are accepted; the default is 20', async () => {
      const merchant = await newMerchant();
      await Promise.all(
        Array.from({ length: 21 }, () =>
          newPayment(service.http, merchant.testKey, { amount: 100 }),
        ),
      );
      const one = await get(merchant.testKey, '/v1/payments?limit=1');
      expect({ status: one.status, count: one.body.data.length, more: one.body.has_more }).toEqual({
        status: 200,
        count: 1,
        more: true,
      });
      const hundred = await get(merchant.testKey, '/v1/payments?limit=100');
      expect({ count: hundred.body.data.length, more: hundred.body.has_more }).toEqual({
        count: 21,
        more: false,
      });
      const byDefault = await get(merchant.testKey, '/v1/payments');
      expect({ count: byDefault.body.data.length, more: byDefault.body.has_more }).toEqual({
        count: 20,
        more: true,
      });
    });

    it('pages through 25 payments with limit 10 and starting_after: 10, 10, 5, has_more true, true, false', async () => {
      const merchant = await newMerchant();
      const created = await Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          newPayment(service.http, merchant.testKey, { amount: 100 + i }),
        ),
      );
      // Ids sort in creation order (CONTRACT 1), which is what "newest first" follows.
      const newestFirst = created
        .map((p) => p.id as string)
        .sort()
        .reverse();

      const pages: Array<{ ids: string[]; has_more: boolean }> = [];
      let path = '/v1/payments?limit=10';
      for (let i = 0; i < 3; i++) {
        const page = await get(merchant.testKey, path);
        expect(page.status).toBe(200);
        const ids = page.body.data.map((p: PaymentObject) => p.id as string);
        pages.push({ ids, has_more: page.body.has_more });
        path = `/v1/payments?limit=10&starting_after=${ids[ids.length - 1]}`;
      }
      expect(pages.map((page) => [page.ids.length, page.has_more])).toEqual([
        [10, true],
        [10, true],
        [5, false],
      ]);
      const seen = pages.flatMap((page) => page.ids);
      expect(new Set(seen).size).toBe(25);
      expect(seen).toEqual(newestFirst);
    });

    it("an unknown starting_after, or another merchant's payment as one: 404 not_found", async () => {
      const [merchant, other] = [await newMerchant(), await newMerchant()];
      await newPayment(service.http, merchant.testKey, { amount: 100 });
      const theirs = await newPayment(service.http, other.testKey, { amount: 100 });
      expectError(
        await get(merchant.testKey, '/v1/payments?starting_after=pay_01NOSUCHPAYMENT0000000000'),
        404,
        'not_found',
      );
      expectError(
        await get(merchant.testKey, `/v1/payments?starting_after=${theirs.id}`),
        404,
        'not_found',
      );
    });

    it('status filters the list; an unknown status is 400', async () => {
      const merchant = await newMerchant();
      const open = await newPayment(service.http, merchant.testKey, { amount: 100 });
      const paid = await newPayment(service.http, merchant.testKey, { amount: 200 });
      const failed = await newPayment(service.http, merchant.testKey, { amount: 300 });
      const processing = await newPayment(service.http, merchant.testKey, {
        amount: 400,
        provider: 'wave',
      });
      await testHelper(service.http, merchant.testKey, paid.id, 'succeed');
      await testHelper(service.http, merchant.testKey, failed.id, 'fail');

      const idsWith = async (status: string) => {
        const list = await get(merchant.testKey, `/v1/payments?status=${status}`);
        expect(list.status).toBe(200);
        return list.body.data.map((p: PaymentObject) => [p.id, p.status]);
      };
      expect(await idsWith('requires_payment_method')).toEqual([
        [open.id, 'requires_payment_method'],
      ]);
      expect(await idsWith('processing')).toEqual([[processing.id, 'processing']]);
      expect(await idsWith('succeeded')).toEqual([[paid.id, 'succeeded']]);
      expect(await idsWith('failed')).toEqual([[failed.id, 'failed']]);
      expect(await idsWith('expired')).toEqual([]);
      expectError(
        await get(merchant.testKey, '/v1/payments?status=paid'),
        400,
        'validation_error',
        ['status'],
      );
    });

    it('an unknown query parameter: 400 validation_error', async () => {
      const merchant = await newMerchant();
      expectError(await get(merchant.testKey, '/v1/payments?sort=asc'), 400, 'validation_error', [
        'sort',
      ]);
    });
  });
});
