import {
  BILLING_INVOICE_CHECKOUT,
  BILLING_INVOICE_LIST,
  BILLING_INVOICE_PUBLIC_GET,
  BILLING_SUBSCRIPTION_CANCEL,
  BILLING_SUBSCRIPTION_CREATE,
  BILLING_SUBSCRIPTION_TEST_ADVANCE,
  CancelSubscriptionRequest,
  CreateSubscriptionRequest,
  InvoiceCheckoutRequest,
  ListInvoicesRequest,
  type SubscriptionReply,
  TestAdvanceRequest,
  validateMessage,
} from '@xaalis/contracts';
import { describeWithPostgres } from '@xaalis/testing';
import { busAnswer, type Gateway, startGateway, zeroBalanceBus } from '../testing/gateway-harness';
import { HttpClient, signUpMerchant } from '../testing/http-client';
import { newPublicInvoice } from './pages/testing/new-public-invoice';

const SUB = 'sub_01JD8ZP5V6W7X8Y9Z0A1B2C3D4';
const INVOICE = newPublicInvoice().invoice;

const subscriptionReply = (livemode = false): SubscriptionReply => ({
  id: SUB,
  object: 'subscription',
  livemode,
  status: 'active',
  customer: { phone: '+221771234567', name: 'Awa Diop', email: null },
  amount: 15_000,
  currency: 'XOF',
  interval: 'month',
  interval_count: 1,
  billing_cycles: null,
  cycles_paid: 0,
  current_period_start: INVOICE.period_start,
  current_period_end: INVOICE.period_end,
  next_invoice_at: INVOICE.period_end,
  cancel_at_period_end: false,
  canceled_at: null,
  completed_at: null,
  days_until_due: 3,
  cancel_after_days: 14,
  description: null,
  client_reference: null,
  metadata: {},
  latest_invoice: { ...INVOICE, livemode },
  created_at: INVOICE.created_at,
});

/** What the billing app would answer; the gateway checks each reply against its contract. */
function billingReply(pattern: string): unknown {
  switch (pattern) {
    case BILLING_SUBSCRIPTION_CREATE:
    case BILLING_SUBSCRIPTION_TEST_ADVANCE:
      return subscriptionReply();
    case BILLING_SUBSCRIPTION_CANCEL:
      return { ...subscriptionReply(), status: 'canceled' };
    case BILLING_INVOICE_LIST:
      return { data: [INVOICE], has_more: false };
    case BILLING_INVOICE_PUBLIC_GET:
      return newPublicInvoice();
    case BILLING_INVOICE_CHECKOUT:
      return { checkout_url: 'http://127.0.0.1/checkout/pay_1?cs=pay_1_secret_x' };
    default:
      return undefined;
  }
}

/**
 * The billing routes' wiring, the billing app stood in for by the harness's bus: credentials,
 * roles, keys, modes and the messages sent (each checked against its contract).
 */
describeWithPostgres('gateway: the billing routes', () => {
  let gw: Gateway;
  let http: HttpClient;
  let cookie: string;
  let merchantId: string;
  let testKey: string;
  let liveKey: string;
  const send = zeroBalanceBus.send.bind(zeroBalanceBus);

  beforeAll(async () => {
    gw = await startGateway();
    http = new HttpClient(gw.url);
    const merchant = await signUpMerchant(http, 'owner@billing.sn', 'Fibre Dakar');
    cookie = merchant.cookie;
    merchantId = merchant.merchantId;
    testKey = await merchant.secretKey('test');
    liveKey = await merchant.secretKey('live');
    jest.spyOn(zeroBalanceBus, 'send').mockImplementation((pattern: string, data: unknown) => {
      const value = billingReply(pattern);
      if (value === undefined) return send(pattern, data);
      zeroBalanceBus.requests.push({ pattern, data });
      return busAnswer({ ok: true, value });
    });
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await gw?.close();
  });

  beforeEach(() => {
    zeroBalanceBus.requests.length = 0;
  });

  const sent = (pattern: string) =>
    zeroBalanceBus.requests.filter((request) => request.pattern === pattern).map((r) => r.data);
  const dashboard = (rest: string) => `/dashboard/v1/merchants/${merchantId}/${rest}`;

  it('creates a subscription from the dashboard, defaults applied and the merchant named', async () => {
    const created = await http.call('POST', dashboard(`test/subscriptions`), {
      cookie,
      idempotencyKey: 'create-1',
      body: {
        customer: { phone: '+221771234567', name: 'Awa Diop' },
        amount: 15_000,
        interval: 'month',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: SUB, object: 'subscription' });
    const [message] = sent(BILLING_SUBSCRIPTION_CREATE);
    expect(() => validateMessage(CreateSubscriptionRequest, message)).not.toThrow();
    expect(message).toMatchObject({
      merchant_id: merchantId,
      mode: 'test',
      subscription_id: expect.stringMatching(/^sub_[0-9A-Z]{20,}$/),
      merchant_name: 'Fibre Dakar',
      interval_count: 1,
      billing_cycles: null,
      days_until_due: 3,
      cancel_after_days: 14,
      metadata: {},
    });
  });

  it('requires the idempotency key on create, and refuses a bad body naming the field', async () => {
    const body = {
      customer: { phone: '+221771234567', name: 'Awa' },
      amount: 15_000,
      interval: 'month',
    };
    const url = dashboard(`test/subscriptions`);
    expect((await http.call('POST', url, { cookie, body })).status).toBe(400);
    const bad = await http.call('POST', url, {
      cookie,
      idempotencyKey: 'create-2',
      body: { ...body, amount: 99 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ field: 'amount', issue: expect.any(String) }]);
    expect(sent(BILLING_SUBSCRIPTION_CREATE)).toEqual([]);
  });

  it('advances a test subscription from the dashboard, but not a live one', async () => {
    const advance = (mode: string, key?: string) =>
      http.call('POST', dashboard(`${mode}/subscriptions/${SUB}/test_advance`), {
        cookie,
        idempotencyKey: key,
      });
    expect((await advance('test')).status).toBe(400);
    expect((await advance('live', 'dash-live')).status).toBe(403);
    const advanced = await advance('test', 'dash-1');
    expect(advanced.status).toBe(200);
    expect(sent(BILLING_SUBSCRIPTION_TEST_ADVANCE)).toEqual([
      { merchant_id: merchantId, mode: 'test', subscription_id: SUB, idempotency_key: 'dash-1' },
    ]);
  });

  it('advances with a test key only, the idempotency key naming the advance', async () => {
    const advance = (bearer: string, key?: string) =>
      http.call('POST', `/v1/subscriptions/${SUB}/test_advance`, { bearer, idempotencyKey: key });
    expect((await advance(testKey)).status).toBe(400);
    const live = await advance(liveKey, 'live-1');
    expect(live.status).toBe(403);
    expect(live.body.error.code).toBe('forbidden');
    const advanced = await advance(testKey, 'advance-1');
    expect(advanced.status).toBe(200);
    const [message] = sent(BILLING_SUBSCRIPTION_TEST_ADVANCE);
    expect(validateMessage(TestAdvanceRequest, message)).toMatchObject({
      idempotency_key: 'advance-1',
    });
    // The same key again replays the first answer without asking billing.
    const again = await advance(testKey, 'advance-1');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(sent(BILLING_SUBSCRIPTION_TEST_ADVANCE)).toHaveLength(1);
  });

  it('cancels with a required key, now unless at_period_end, and answers 200', async () => {
    const cancel = (body?: unknown, key?: string) =>
      http.call('POST', `/v1/subscriptions/${SUB}/cancel`, {
        bearer: testKey,
        body,
        idempotencyKey: key,
      });
    expect((await cancel({})).status).toBe(400);
    const canceled = await cancel(undefined, 'cancel-1');
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ status: 'canceled' });
    expect(canceled.body).not.toHaveProperty('pending_payment');
    await cancel({ at_period_end: true }, 'cancel-2');
    const messages = sent(BILLING_SUBSCRIPTION_CANCEL);
    messages.forEach((message) => validateMessage(CancelSubscriptionRequest, message));
    expect(messages.map((m) => (m as CancelSubscriptionRequest).at_period_end)).toEqual([
      false,
      true,
    ]);
  });

  it('lists invoices with both filters', async () => {
    const list = await http.call('GET', `/v1/invoices?subscription=${SUB}&status=open&limit=5`, {
      bearer: testKey,
    });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ object: 'list', data: [INVOICE], has_more: false });
    const [message] = sent(BILLING_INVOICE_LIST);
    expect(validateMessage(ListInvoicesRequest, message)).toMatchObject({
      subscription: SUB,
      status: 'open',
      limit: 5,
    });
  });

  it('serves the hosted invoice page without credentials, under the pages CSP', async () => {
    const page = await fetch(`${gw.url}/invoices/${INVOICE.id}/pay`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(await page.text()).toContain('Facture de Boutique Awa');
  });

  it('sends "Payer" to the hosted checkout, with the invoice page to come back to', async () => {
    const paid = await fetch(`${gw.url}/invoices/${INVOICE.id}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('http://127.0.0.1/checkout/pay_1?cs=pay_1_secret_x');
    const [message] = sent(BILLING_INVOICE_CHECKOUT);
    expect(validateMessage(InvoiceCheckoutRequest, message)).toEqual({
      invoice_id: INVOICE.id,
      return_url: `http://127.0.0.1/invoices/${INVOICE.id}/pay`,
    });
  });

  it('shows the 404 message page for an unknown invoice', async () => {
    jest
      .mocked(zeroBalanceBus.send)
      .mockImplementationOnce(() =>
        busAnswer({ ok: false, error: { code: 'not_found', message: 'No such invoice.' } }),
      );
    const page = await fetch(`${gw.url}/invoices/in_unknown/pay`);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('Facture introuvable');
  });
});
