import { idempotencyKey } from './support/fixtures';
import {
  closeWithLedgerBalanced,
  startInProcessService,
  type InProcessService,
} from './support/in-process-service';
import { merchantFactory, type TestMerchant } from './support/merchant';
import {
  allPaymentIds,
  clientSecretOf,
  createPayment,
  expectError,
  newPayment,
  PAYMENT_LIFETIME_MS,
} from './support/payments';
import { rawRequest } from './support/raw-http';

/** Spec 4.1, 8 and CONTRACT 2, 3: what `POST /v1/payments` takes, refuses and answers. */
describe('payments over HTTP: creation and validation', () => {
  let service: InProcessService;
  const newMerchant = merchantFactory(() => service.http);

  beforeAll(async () => {
    service = await startInProcessService();
  });
  afterAll(() => closeWithLedgerBalanced(service));

  describe('every field of spec 4.1 is accepted at its bound', () => {
    let merchant: TestMerchant;
    beforeAll(async () => {
      merchant = await newMerchant();
    });

    it.each([
      ['amount 1', { amount: 1 }, { amount: 1, fee: 0, net: 1 }],
      ['amount 100000000', { amount: 100_000_000 }, { amount: 100_000_000 }],
      ['amount 1 with wave (fee rounds to 0)', { amount: 1, provider: 'wave' }, { fee: 0, net: 1 }],
      [
        'amount 100000000 with orange_money',
        { amount: 100_000_000, provider: 'orange_money' },
        { fee: 1_500_000, net: 98_500_000 },
      ],
      ['currency XOF', { amount: 500, currency: 'XOF' }, { currency: 'XOF' }],
      [
        'description of 200 chars',
        { amount: 500, description: 'é'.repeat(200) },
        { description: 'é'.repeat(200) },
      ],
      [
        'client_reference of 100 chars',
        { amount: 500, client_reference: 'r'.repeat(100) },
        { client_reference: 'r'.repeat(100) },
      ],
      [
        'customer name of 100 chars and a phone',
        { amount: 500, customer: { phone: '+221771234567', name: 'n'.repeat(100) } },
        { customer: { phone: '+221771234567', name: 'n'.repeat(100) } },
      ],
      [
        'customer without phone',
        { amount: 500, customer: { name: 'Awa' } },
        { customer: { phone: null, name: 'Awa' } },
      ],
      [
        'metadata values of 500 chars, and empty ones',
        { amount: 500, metadata: { note: 'm'.repeat(500), empty: '' } },
        { metadata: { note: 'm'.repeat(500), empty: '' } },
      ],
      [
        'https and http success/cancel URLs',
        {
          amount: 500,
          success_url: 'https://shop.example.sn/merci?order=42',
          cancel_url: 'http://localhost:8080/panier',
        },
        {},
      ],
    ])('%s', async (_name, body, echoed) => {
      const created = await createPayment(service.http, merchant.testKey, body);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject(echoed);
      expect(created.body.fee + created.body.net).toBe(created.body.amount);
    });
  });

  describe('each violation is a 400 validation_error naming the field, and nothing is created', () => {
    let merchant: TestMerchant;
    let before: string[];
    beforeAll(async () => {
      merchant = await newMerchant();
      await newPayment(service.http, merchant.testKey);
      before = await allPaymentIds(service.http, merchant.testKey);
      expect(before).toHaveLength(1);
    });
    afterEach(async () => {
      expect(await allPaymentIds(service.http, merchant.testKey)).toEqual(before);
    });

    it.each([
      ['amount 0', { amount: 0 }, 'amount'],
      ['amount 100000001', { amount: 100_000_001 }, 'amount'],
      ['amount 1.5', { amount: 1.5 }, 'amount'],
      ['amount "100"', { amount: '100' }, 'amount'],
      ['amount null', { amount: null }, 'amount'],
      ['amount missing', { description: 'no amount' }, 'amount'],
      ['currency EUR', { amount: 500, currency: 'EUR' }, 'currency'],
      ['provider mock', { amount: 500, provider: 'mock' }, 'provider'],
      ['provider paypal', { amount: 500, provider: 'paypal' }, 'provider'],
      ['description of 201 chars', { amount: 500, description: 'd'.repeat(201) }, 'description'],
      [
        'client_reference of 101 chars',
        { amount: 500, client_reference: 'r'.repeat(101) },
        'client_reference',
      ],
      [
        'customer.phone +22160…',
        { amount: 500, customer: { phone: '+221601234567' } },
        'customer.phone',
      ],
      [
        'customer.phone 77… without +221',
        { amount: 500, customer: { phone: '771234567' } },
        'customer.phone',
      ],
      [
        'customer.phone one digit short',
        { amount: 500, customer: { phone: '+22177123456' } },
        'customer.phone',
      ],
      [
        'customer.name of 101 chars',
        { amount: 500, customer: { name: 'n'.repeat(101) } },
        'customer.name',
      ],
      ['customer not an object', { amount: 500, customer: 'Awa' }, 'customer'],
      [
        'an unknown customer field',
        { amount: 500, customer: { email: 'a@b.sn' } },
        'customer.email',
      ],
      ['success_url not a URL', { amount: 500, success_url: 'merci' }, 'success_url'],
      [
        'success_url ftp:',
        { amount: 500, success_url: 'ftp://shop.example.sn/merci' },
        'success_url',
      ],
      ['cancel_url javascript:', { amount: 500, cancel_url: 'javascript:alert(1)' }, 'cancel_url'],
      ['metadata with a number value', { amount: 500, metadata: { order: 42 } }, 'metadata'],
      [
        'metadata with a 501-char value',
        { amount: 500, metadata: { note: 'm'.repeat(501) } },
        'metadata',
      ],
      ['metadata not an object', { amount: 500, metadata: ['a'] }, 'metadata'],
      ['an unknown top-level field', { amount: 500, status: 'succeeded' }, 'status'],
    ])('%s', async (_name, body, field) => {
      const refused = await createPayment(service.http, merchant.testKey, body);
      expectError(refused, 400, 'validation_error', [field]);
    });

    it('a body that is not JSON: 400 validation_error', async () => {
      const refused = await rawRequest(service.url, 'POST', '/v1/payments', {
        headers: {
          authorization: `Bearer ${merchant.testKey}`,
          'content-type': 'application/json',
        },
        body: '{"amount": 500',
      });
      expectError(refused, 400, 'validation_error');
    });

    it('a JSON body that is not an object: 400 validation_error', async () => {
      const refused = await rawRequest(service.url, 'POST', '/v1/payments', {
        headers: {
          authorization: `Bearer ${merchant.testKey}`,
          'content-type': 'application/json',
        },
        body: '[{"amount": 500}]',
      });
      expectError(refused, 400, 'validation_error');
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded'])(
      'a %s body: 415 unsupported_media_type',
      async (contentType) => {
        const refused = await rawRequest(service.url, 'POST', '/v1/payments', {
          headers: { authorization: `Bearer ${merchant.testKey}`, 'content-type': contentType },
          body: contentType === 'text/plain' ? '{"amount": 500}' : 'amount=500',
        });
        expectError(refused, 415, 'unsupported_media_type');
      },
    );

    it('an idempotency-key of 256 characters: 400 naming the header', async () => {
      const refused = await createPayment(
        service.http,
        merchant.testKey,
        { amount: 500 },
        {
          idempotencyKey: 'k'.repeat(256),
        },
      );
      expectError(refused, 400, 'validation_error', ['idempotency-key']);
    });
  });

  describe('the payment answered (spec 2.1)', () => {
    let merchant: TestMerchant;
    beforeAll(async () => {
      merchant = await newMerchant();
    });

    it('without provider: requires_payment_method, next_action is the checkout page, expires in 30 minutes', async () => {
      const now = service.clock.now();
      const created = await createPayment(service.http, merchant.testKey, {
        amount: 10_000,
        description: 'Thiéboudienne x2',
        client_reference: 'order-1',
        customer: { phone: '+221771234567', name: 'Awa Diop' },
        success_url: 'https://shop.example.sn/merci',
        cancel_url: 'https://shop.example.sn/panier',
        metadata: { order_id: '1234' },
      });
      expect(created.status).toBe(201);
      const id: string = created.body.id;
      expect(id).toMatch(/^pay_[0-9A-Za-z]{20,}$/);
      const cs = clientSecretOf(created.body);
      expect(cs).toMatch(new RegExp(`^${id}_secret_[0-9A-Za-z_-]{22,}$`));
      const checkoutUrl = `${service.url}/checkout/${id}?cs=${cs}`;
      expect(created.body).toEqual({
        id,
        object: 'payment',
        livemode: false,
        amount: 10_000,
        currency: 'XOF',
        fee: 0,
        net: 10_000,
        amount_refunded: 0,
        status: 'requires_payment_method',
        provider: null,
        client_reference: 'order-1',
        description: 'Thiéboudienne x2',
        customer: { phone: '+221771234567', name: 'Awa Diop' },
        checkout_url: checkoutUrl,
        next_action: { type: 'redirect', url: checkoutUrl },
        metadata: { order_id: '1234' },
        failure_reason: null,
        provider_transaction_id: null,
        expires_at: new Date(now.getTime() + PAYMENT_LIFETIME_MS).toISOString(),
        succeeded_at: null,
        created_at: now.toISOString(),
      });
      expect(Date.parse(created.body.expires_at) - Date.parse(created.body.created_at)).toBe(
        30 * 60_000,
      );
    });

    it('optional fields absent: nulls, an empty metadata object, currency XOF', async () => {
      const created = await newPayment(service.http, merchant.testKey, { amount: 750 });
      expect(created).toMatchObject({
        currency: 'XOF',
        description: null,
        client_reference: null,
        customer: { phone: null, name: null },
        metadata: {},
        provider: null,
      });
    });

    it.each([
      // 1% of 12 350 is 123.5: rounded half up.
      ['wave', 124, 12_226],
      // 1.5% of 12 350 is 185.25.
      ['orange_money', 185, 12_165],
    ])(
      'with provider %s: processing, next_action is its sandbox page, fee %i, net %i',
      async (provider, fee, net) => {
        const now = service.clock.now();
        const created = await createPayment(service.http, merchant.testKey, {
          amount: 12_350,
          provider,
        });
        expect(created.status).toBe(201);
        const id: string = created.body.id;
        const cs = clientSecretOf(created.body);
        expect(created.body).toEqual(
          expect.objectContaining({
            status: 'processing',
            provider,
            amount: 12_350,
            fee,
            net,
            checkout_url: `${service.url}/checkout/${id}?cs=${cs}`,
            next_action: {
              type: 'redirect',
              url: `${service.url}/sandbox/${provider}/${id}?cs=${cs}`,
            },
            provider_transaction_id: null,
            succeeded_at: null,
            expires_at: new Date(now.getTime() + PAYMENT_LIFETIME_MS).toISOString(),
            created_at: now.toISOString(),
          }),
        );
        expect(fee + net).toBe(12_350);
      },
    );
  });

  describe('live mode and the aggregated Wave identity (CONTRACT 5)', () => {
    it('live wave without an aggregated identity: 422 aggregated_identity_required, nothing created', async () => {
      const merchant = await newMerchant();
      const refused = await createPayment(service.http, merchant.liveKey, {
        amount: 5_000,
        provider: 'wave',
      });
      expectError(refused, 422, 'aggregated_identity_required');
      expect(await allPaymentIds(service.http, merchant.liveKey)).toEqual([]);
    });

    it('live without provider: created, and the customer is not offered wave', async () => {
      const merchant = await newMerchant();
      const created = await newPayment(service.http, merchant.liveKey, { amount: 5_000 });
      expect(created).toMatchObject({
        livemode: true,
        status: 'requires_payment_method',
        provider: null,
      });
      const view = await service.http.get(
        `/v1/public/payments/${created.id}?cs=${clientSecretOf(created)}`,
      );
      expect(view.status).toBe(200);
      expect(view.body.available_providers).toEqual(['orange_money']);
    });

    it('after the identity is set, live wave passes that check: 503 unavailable (no WAVE_API_KEY), not a 500, nothing created', async () => {
      const merchant = await newMerchant();
      const set = await merchant.owner.request(
        'PUT',
        `/dashboard/v1/merchants/${merchant.merchantId}/live/provider-identities/wave`,
        { body: { aggregated_merchant_id: 'am-e2e-0001' } },
      );
      expect(set.status).toBe(200);
      expect(set.body).toEqual({
        object: 'provider_identity',
        merchant_id: merchant.merchantId,
        provider: 'wave',
        livemode: true,
        aggregated_merchant_id: 'am-e2e-0001',
      });

      const attempt = await createPayment(service.http, merchant.liveKey, {
        amount: 5_000,
        provider: 'wave',
      });
      expectError(attempt, 503, 'unavailable');
      expect(await allPaymentIds(service.http, merchant.liveKey)).toEqual([]);

      // The identity also opens wave to the customer of a live payment created without provider.
      const created = await newPayment(service.http, merchant.liveKey, { amount: 5_000 });
      const view = await service.http.get(
        `/v1/public/payments/${created.id}?cs=${clientSecretOf(created)}`,
      );
      expect(view.body.available_providers).toEqual(['wave', 'orange_money']);
    });

    it('live orange_money without its credentials: 503 unavailable, nothing created', async () => {
      const merchant = await newMerchant();
      const attempt = await createPayment(service.http, merchant.liveKey, {
        amount: 5_000,
        provider: 'orange_money',
      });
      expectError(attempt, 503, 'unavailable');
      expect(await allPaymentIds(service.http, merchant.liveKey)).toEqual([]);
    });
  });

  describe('idempotency (CONTRACT 3)', () => {
    const body = { amount: 4_200, description: 'Yassa poulet', metadata: { table: '7' } };

    it('same key, same body: the stored body byte for byte, Idempotent-Replayed: true, one payment', async () => {
      const merchant = await newMerchant();
      const key = idempotencyKey();
      const first = await createPayment(service.http, merchant.testKey, body, {
        idempotencyKey: key,
      });
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await createPayment(service.http, merchant.testKey, body, {
        idempotencyKey: key,
      });
      expect({ status: again.status, replayed: again.headers.get('idempotent-replayed') }).toEqual({
        status: 201,
        replayed: 'true',
      });
      expect(again.text).toBe(first.text);
      expect(await allPaymentIds(service.http, merchant.testKey)).toEqual([first.body.id]);
    });

    it('same key, other body: 409 idempotency_conflict, nothing more created', async () => {
      const merchant = await newMerchant();
      const key = idempotencyKey();
      const first = await createPayment(service.http, merchant.testKey, body, {
        idempotencyKey: key,
      });
      expect(first.status).toBe(201);
      const other = await createPayment(
        service.http,
        merchant.testKey,
        { ...body, amount: 4_201 },
        {
          idempotencyKey: key,
        },
      );
      expectError(other, 409, 'idempotency_conflict');
      expect(await allPaymentIds(service.http, merchant.testKey)).toEqual([first.body.id]);
    });

    it('a refused request is not stored: the same key then creates', async () => {
      const merchant = await newMerchant();
      const key = idempotencyKey();
      const refused = await createPayment(
        service.http,
        merchant.testKey,
        { amount: 0 },
        { idempotencyKey: key },
      );
      expectError(refused, 400, 'validation_error', ['amount']);
      const created = await createPayment(service.http, merchant.testKey, body, {
        idempotencyKey: key,
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('idempotent-replayed')).toBeNull();
    });

    it('keys are per merchant: another merchant with the same key and body gets its own payment', async () => {
      const [one, two] = [await newMerchant(), await newMerchant()];
      const key = idempotencyKey();
      const first = await createPayment(service.http, one.testKey, body, { idempotencyKey: key });
      const second = await createPayment(service.http, two.testKey, body, { idempotencyKey: key });
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.headers.get('idempotent-replayed')).toBeNull();
      expect(second.body.id).not.toBe(first.body.id);
    });

    it('20 concurrent creates with one key: exactly one payment; every 2xx carries its id, the rest are 409', async () => {
      const merchant = await newMerchant();
      const key = idempotencyKey();
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          createPayment(service.http, merchant.testKey, body, { idempotencyKey: key }),
        ),
      );
      const ids = await allPaymentIds(service.http, merchant.testKey);
      expect(ids).toHaveLength(1);
      const created = results.filter((result) => result.status === 201);
      const conflicts = results.filter((result) => result.status !== 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(created.map((result) => result.body.id)).toEqual(created.map(() => ids[0]));
      expect(new Set(created.map((result) => result.text)).size).toBe(1);
      for (const conflict of conflicts) expectError(conflict, 409, 'idempotency_conflict');
    });
  });
});
