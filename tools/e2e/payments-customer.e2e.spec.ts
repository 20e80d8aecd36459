import type { HttpResult } from './support/http';
import {
  closeWithLedgerBalanced,
  startInProcessService,
  type InProcessService,
} from './support/in-process-service';
import { merchantFactory, newTestMerchant, type TestMerchant } from './support/merchant';
import {
  clientSecretOf,
  expectBalance,
  expectError,
  getPayment,
  MAGIC_DECLINED_PHONE,
  newPayment,
  sleep,
  testHelper,
  type PaymentObject,
} from './support/payments';
import { rawRequest } from './support/raw-http';

const NARROW_NBSP = '\u202f';
const NBSP = '\u00a0';
/** How format-xof.ts writes 10 000 XOF on the hosted pages. */
const TEN_THOUSAND_FCFA = `10${NARROW_NBSP}000${NBSP}FCFA`;

/** Spec 2.2, 4.1 (public pay step), CONTRACT 6: the customer's side of a payment. */
describe('payments over HTTP: the customer side', () => {
  let service: InProcessService;
  const newMerchant = merchantFactory(() => service.http);

  beforeAll(async () => {
    service = await startInProcessService();
  });
  afterAll(() => closeWithLedgerBalanced(service));

  const payPath = (id: string, cs?: string) =>
    `/v1/public/payments/${id}/pay${cs === undefined ? '' : `?cs=${encodeURIComponent(cs)}`}`;
  const pay = (payment: PaymentObject, body: unknown, cs = clientSecretOf(payment)) =>
    service.http.post(payPath(payment.id, cs), { body });
  /** What a browser does with the sandbox page's forms: an empty form post, no redirect followed. */
  const sandboxAct = (provider: string, payment: PaymentObject, action: 'approve' | 'decline') =>
    rawRequest(
      service.url,
      'POST',
      `/sandbox/${provider}/${payment.id}/${action}?cs=${encodeURIComponent(clientSecretOf(payment))}`,
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' },
    );
  const page = (path: string) =>
    rawRequest(service.url, 'GET', path, { headers: { accept: 'text/html' } });

  describe('the public pay step', () => {
    let merchant: TestMerchant;
    beforeAll(async () => {
      merchant = await newMerchant();
    });

    it('wrong cs, the cs of another payment, unknown id: the same 404', async () => {
      const payment = await newPayment(service.http, merchant.testKey);
      const other = await newPayment(service.http, merchant.testKey);
      const answers = [
        await pay(payment, { provider: 'wave' }, `${payment.id}_secret_${'A'.repeat(32)}`),
        await pay(payment, { provider: 'wave' }, clientSecretOf(other)),
        await service.http.post(payPath('pay_01NOSUCHPAYMENT0000000000', clientSecretOf(payment)), {
          body: { provider: 'wave' },
        }),
      ];
      for (const answer of answers) expectError(answer, 404, 'not_found');
      expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
      expect((await getPayment(service.http, merchant.testKey, payment.id)).status).toBe(
        'requires_payment_method',
      );
    });

    it('a missing or empty cs: the same 404 as a wrong one', async () => {
      const payment = await newPayment(service.http, merchant.testKey);
      const wrong = await pay(payment, { provider: 'wave' }, 'pay_wrong_secret');
      expectError(wrong, 404, 'not_found');
      const missing = await service.http.post(payPath(payment.id), { body: { provider: 'wave' } });
      const empty = await service.http.post(payPath(payment.id, ''), {
        body: { provider: 'wave' },
      });
      expect([missing.status, missing.text]).toEqual([404, wrong.text]);
      expect([empty.status, empty.text]).toEqual([404, wrong.text]);
    });

    it.each([
      ['provider mock', { provider: 'mock' }, 'provider'],
      ['provider paypal', { provider: 'paypal' }, 'provider'],
      ['no provider', {}, 'provider'],
      ['a phone off the pattern', { provider: 'wave', phone: '+221601234567' }, 'phone'],
      ['an unknown field', { provider: 'wave', amount: 1 }, 'amount'],
    ])('%s: 400 validation_error, the payment unchanged', async (_name, body, field) => {
      const payment = await newPayment(service.http, merchant.testKey);
      expectError(await pay(payment, body), 400, 'validation_error', [field]);
      expect(await getPayment(service.http, merchant.testKey, payment.id)).toEqual(payment);
    });

    it('choosing a provider: the customer view of spec 2.2, processing, next_action the sandbox page', async () => {
      const payment = await newPayment(service.http, merchant.testKey, {
        amount: 10_000,
        description: 'Thiéboudienne x2',
        success_url: 'https://shop.example.sn/merci',
      });
      const cs = clientSecretOf(payment);
      const chosen = await pay(payment, { provider: 'wave', phone: '+221771234567' });
      expect(chosen.status).toBe(200);
      expect(chosen.body).toEqual({
        id: payment.id,
        livemode: false,
        amount: 10_000,
        currency: 'XOF',
        status: 'processing',
        description: 'Thiéboudienne x2',
        merchant: { name: expect.stringMatching(/^E2E Shop /) },
        provider: 'wave',
        available_providers: ['wave', 'orange_money'],
        next_action: {
          type: 'redirect',
          url: `${service.url}/sandbox/wave/${payment.id}?cs=${cs}`,
        },
        expires_at: payment.expires_at,
        return_url: null,
      });
      // The customer's view, read again, and the merchant's: the same payment.
      const polled = await service.http.get(`/v1/public/payments/${payment.id}?cs=${cs}`);
      expect(polled.body).toEqual(chosen.body);
      expect(await getPayment(service.http, merchant.testKey, payment.id)).toMatchObject({
        status: 'processing',
        provider: 'wave',
        fee: 100,
        net: 9_900,
        customer: { phone: '+221771234567', name: null },
        next_action: chosen.body.next_action,
      });
    });

    it('the same provider again: the same view, nothing changes; the other provider: 409 invalid_state', async () => {
      const payment = await newPayment(service.http, merchant.testKey);
      const first = await pay(payment, { provider: 'orange_money' });
      expect(first.status).toBe(200);
      const merchantView = await getPayment(service.http, merchant.testKey, payment.id);

      const again = await pay(payment, { provider: 'orange_money' });
      expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: first.body });
      expectError(await pay(payment, { provider: 'wave' }), 409, 'invalid_state');
      expect(await getPayment(service.http, merchant.testKey, payment.id)).toEqual(merchantView);
    });

    it('after success, either provider: 409 invalid_state', async () => {
      const payment = await newPayment(service.http, merchant.testKey, {
        amount: 500,
        provider: 'wave',
      });
      await testHelper(service.http, merchant.testKey, payment.id, 'succeed');
      expectError(await pay(payment, { provider: 'wave' }), 409, 'invalid_state');
      expectError(await pay(payment, { provider: 'orange_money' }), 409, 'invalid_state');
    });

    it('after failure or expiry: 409 invalid_state', async () => {
      const failed = await newPayment(service.http, merchant.testKey);
      await testHelper(service.http, merchant.testKey, failed.id, 'fail');
      expectError(await pay(failed, { provider: 'wave' }), 409, 'invalid_state');
      const expired = await newPayment(service.http, merchant.testKey);
      await testHelper(service.http, merchant.testKey, expired.id, 'expire');
      expectError(await pay(expired, { provider: 'wave' }), 409, 'invalid_state');
    });
  });

  describe('the hosted checkout page', () => {
    it('text/html with the merchant name and the amount, a CSP nonce, no-store', async () => {
      const merchant = await newMerchant('Chez Awa');
      const payment = await newPayment(service.http, merchant.testKey, {
        amount: 10_000,
        description: 'Mafé',
      });
      const path = `/checkout/${payment.id}?cs=${clientSecretOf(payment)}`;
      const shown = await page(path);
      expect(shown.status).toBe(200);
      expect(shown.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(shown.headers.get('cache-control')).toBe('no-store');
      expect(shown.headers.get('referrer-policy')).toBe('no-referrer');
      expect(shown.text).toContain('<h1>Chez Awa</h1>');
      expect(shown.text).toContain(`<p class="amount">${TEN_THOUSAND_FCFA}</p>`);
      expect(shown.text).toContain('Mafé');
      expect(shown.text).toContain('data-provider="wave"');
      expect(shown.text).toContain('data-provider="orange_money"');

      const nonce = cspNonce(shown);
      expect(shown.text).toContain(`<script nonce="${nonce}">`);
      expect(shown.text).toContain(`<style nonce="${nonce}">`);
      expect(cspNonce(await page(path))).not.toBe(nonce);
    });

    it("escapes the merchant's name", async () => {
      const merchant = await newMerchant('Chez <b>Awa</b> & "Fils"');
      const payment = await newPayment(service.http, merchant.testKey);
      const shown = await page(`/checkout/${payment.id}?cs=${clientSecretOf(payment)}`);
      expect(shown.text).toContain('Chez &lt;b&gt;Awa&lt;/b&gt; &amp; &quot;Fils&quot;');
      expect(shown.text).not.toContain('<b>Awa</b>');
    });

    it('a wrong or missing cs: a 404 page, with the same headers', async () => {
      const merchant = await newMerchant();
      const payment = await newPayment(service.http, merchant.testKey);
      for (const path of [
        `/checkout/${payment.id}?cs=pay_wrong_secret`,
        `/checkout/${payment.id}`,
      ]) {
        const shown = await page(path);
        expect(shown.status).toBe(404);
        expect(shown.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(shown.headers.get('cache-control')).toBe('no-store');
        expect(shown.text).toContain('Paiement introuvable');
        expect(shown.text).not.toContain('E2E Shop');
      }
    });
  });

  describe('the sandbox pages (CONTRACT 6)', () => {
    it('the sandbox page shows the merchant, the amount, and Approve/Decline forms posting to itself', async () => {
      const merchant = await newMerchant('Boutique Ndiaye');
      const payment = await newPayment(service.http, merchant.testKey, {
        amount: 10_000,
        provider: 'wave',
      });
      const next = new URL(payment.next_action.url);
      const shown = await page(`${next.pathname}${next.search}`);
      expect(shown.status).toBe(200);
      expect(shown.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(shown.headers.get('cache-control')).toBe('no-store');
      expect(shown.text).toContain('Boutique Ndiaye');
      expect(shown.text).toContain(TEN_THOUSAND_FCFA);
      const cs = encodeURIComponent(clientSecretOf(payment));
      for (const action of ['approve', 'decline']) {
        expect(shown.text).toContain(`action="/sandbox/wave/${payment.id}/${action}?cs=${cs}"`);
        expect(shown.text).toContain(`data-action="${action}"`);
      }
    });

    it("another provider's sandbox, or a wrong cs: 404", async () => {
      const merchant = await newMerchant();
      const payment = await newPayment(service.http, merchant.testKey, {
        provider: 'wave',
        amount: 500,
      });
      const cs = clientSecretOf(payment);
      expect((await page(`/sandbox/orange_money/${payment.id}?cs=${cs}`)).status).toBe(404);
      expect((await page(`/sandbox/wave/${payment.id}?cs=pay_wrong_secret`)).status).toBe(404);
      const act = await rawRequest(
        service.url,
        'POST',
        `/sandbox/wave/${payment.id}/approve?cs=pay_wrong_secret`,
      );
      expect(act.status).toBe(404);
      expect((await getPayment(service.http, merchant.testKey, payment.id)).status).toBe(
        'processing',
      );
    });

    it('approve: 303 back to the checkout page; succeeded, net credited once; a second approve changes nothing', async () => {
      const merchant = await newMerchant();
      const payment = await newPayment(service.http, merchant.testKey, {
        amount: 10_000,
        provider: 'wave',
        success_url: 'https://shop.example.sn/merci',
        cancel_url: 'https://shop.example.sn/panier',
      });
      const cs = clientSecretOf(payment);
      const approved = await sandboxAct('wave', payment, 'approve');
      expect(approved.status).toBe(303);
      expect(approved.headers.get('location')).toBe(
        `/checkout/${payment.id}?cs=${encodeURIComponent(cs)}`,
      );

      const paid = await getPayment(service.http, merchant.testKey, payment.id);
      expect(paid).toMatchObject({
        status: 'succeeded',
        provider: 'wave',
        fee: 100,
        net: 9_900,
        failure_reason: null,
        provider_transaction_id: expect.stringMatching(/^sandbox_txn_/),
        succeeded_at: service.clock.now().toISOString(),
      });
      const view = await service.http.get(`/v1/public/payments/${payment.id}?cs=${cs}`);
      expect(view.body).toMatchObject({
        status: 'succeeded',
        return_url: 'https://shop.example.sn/merci',
      });
      expect((await page(`/checkout/${payment.id}?cs=${cs}`)).text).toContain('Paiement réussi');
      await expectBalance(service.http, merchant.testKey, { available: 9_900, pending: 0 });

      const twice = await sandboxAct('wave', payment, 'approve');
      expect(twice.status).toBe(303);
      expect(await getPayment(service.http, merchant.testKey, payment.id)).toEqual(paid);
      await expectBalance(service.http, merchant.testKey, { available: 9_900, pending: 0 });
    });

    it('decline: 303 back; failed with failure_reason declined; return_url is cancel_url; nothing credited', async () => {
      const merchant = await newMerchant();
      const payment = await newPayment(service.http, merchant.testKey, {
        amount: 10_000,
        success_url: 'https://shop.example.sn/merci',
        cancel_url: 'https://shop.example.sn/panier',
      });
      const chosen = await pay(payment, { provider: 'orange_money' });
      expect(chosen.status).toBe(200);
      const declined = await sandboxAct('orange_money', payment, 'decline');
      expect(declined.status).toBe(303);
      expect(await getPayment(service.http, merchant.testKey, payment.id)).toMatchObject({
        status: 'failed',
        failure_reason: 'declined',
        succeeded_at: null,
        provider_transaction_id: null,
      });
      const view = await service.http.get(
        `/v1/public/payments/${payment.id}?cs=${clientSecretOf(payment)}`,
      );
      expect(view.body).toMatchObject({
        status: 'failed',
        return_url: 'https://shop.example.sn/panier',
      });
      await expectBalance(service.http, merchant.testKey, { available: 0, pending: 0 });
    });

    it(`magic phone ${MAGIC_DECLINED_PHONE} given at creation: approve ends failed, declined`, async () => {
      const merchant = await newMerchant();
      const payment = await newPayment(service.http, merchant.testKey, {
        amount: 2_000,
        provider: 'wave',
        customer: { phone: MAGIC_DECLINED_PHONE },
      });
      expect((await sandboxAct('wave', payment, 'approve')).status).toBe(303);
      expect(await getPayment(service.http, merchant.testKey, payment.id)).toMatchObject({
        status: 'failed',
        failure_reason: 'declined',
      });
    });

    it(`magic phone ${MAGIC_DECLINED_PHONE} given at the pay step: approve ends failed, declined`, async () => {
      const merchant = await newMerchant();
      const payment = await newPayment(service.http, merchant.testKey, { amount: 2_000 });
      expect((await pay(payment, { provider: 'wave', phone: MAGIC_DECLINED_PHONE })).status).toBe(
        200,
      );
      expect((await sandboxAct('wave', payment, 'approve')).status).toBe(303);
      expect(await getPayment(service.http, merchant.testKey, payment.id)).toMatchObject({
        status: 'failed',
        failure_reason: 'declined',
        customer: { phone: MAGIC_DECLINED_PHONE },
      });
    });
  });

  describe('rate limit of the public pay step, per IP', () => {
    let limited: InProcessService;
    beforeAll(async () => {
      // A window of 3 calls per second (rate-limiter-flexible counts on the wall clock).
      limited = await startInProcessService({
        IP_RATE_LIMIT_BURST: '3',
        IP_RATE_LIMIT_PER_SECOND: '3',
      });
    });
    afterAll(async () => limited?.close());

    it('the 4th quick call is 429 rate_limited with Retry-After; a second later it passes', async () => {
      const merchant = await newTestMerchant(limited.http);
      const [one, two] = [
        await newPayment(limited.http, merchant.testKey),
        await newPayment(limited.http, merchant.testKey),
      ];
      // Sign-up drew on the same per-IP window: let it end.
      await sleep(1_100);
      const call = (payment: PaymentObject) =>
        limited.http.post(payPath(payment.id, clientSecretOf(payment)), {
          body: { provider: 'wave' },
        });

      const allowed = [await call(one), await call(two), await call(one)];
      expect(allowed.map((answer) => answer.status)).toEqual([200, 200, 200]);
      const fourth = await call(two);
      expectError(fourth, 429, 'rate_limited');
      expect(fourth.headers.get('retry-after')).toBe('1');

      await sleep(1_000);
      expect((await call(two)).status).toBe(200);
    });
  });
});

function cspNonce(response: HttpResult): string {
  const csp = response.headers.get('content-security-policy') ?? '';
  const nonce = /script-src 'nonce-([A-Za-z0-9+/_=-]+)'/.exec(csp)?.[1];
  expect({ csp, hasNonce: nonce !== undefined }).toEqual({ csp, hasNonce: true });
  expect(csp).toContain(`style-src 'nonce-${nonce}'`);
  expect(csp).toContain("default-src 'none'");
  return nonce!;
}
