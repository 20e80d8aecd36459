import type { Browser } from 'playwright-core';
import {
  describeWithChromium,
  launchChromium,
  phonePage,
} from '../../apps/gateway/src/pages/testing/describe-with-chromium';
import { formatFrenchDate } from '../../apps/gateway/src/billing/pages/french-date';
import {
  advance,
  awaitEvents,
  createSubscription,
  DAY_MS,
  eventsAbout,
  getInvoice,
  getSubscription,
  invoicePage,
  newSubscription,
  postInvoicePage,
  startInvoiceCheckout,
  subscriptionBody,
  type BillingObject,
} from './support/billing';
import { idempotencyKey } from './support/fixtures';
import {
  closeWithLedgerBalanced,
  startInProcessService,
  type InProcessService,
} from './support/in-process-service';
import { merchantFactory, type TestMerchant } from './support/merchant';
import { expectBalance, expectError, eventually, getPayment, testHelper } from './support/payments';
import { addDeveloper } from './support/payouts';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const at = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY_MS).toISOString();

/**
 * Spec 2.3, 2.4, 3.2, 3.3, 4.2 and CONTRACT 7 through the six apps in one process: dashboard
 * create, the hosted invoice page, test_advance through due and grace, webhook events, lists.
 */
let service: InProcessService;
const newMerchant = merchantFactory(() => service.http);
const http = () => service.http;

beforeAll(async () => {
  service = await startInProcessService();
});
afterAll(() => closeWithLedgerBalanced(service));

/** Waits for the invoice to reach `status` (payment events travel over the bus). */
const invoiceReaching = async (merchant: TestMerchant, id: string, status: string) => {
  const invoice = await eventually(
    () => getInvoice(http(), merchant.testKey, id),
    (seen) => seen.status === status,
  );
  expect({ id, status: invoice.status }).toEqual({ id, status });
  return invoice;
};

describe('creating a subscription from the dashboard', () => {
  it('refuses every bound of the body with a 400 naming the field, and a missing key', async () => {
    const merchant = await newMerchant();
    const refused = async (overrides: Record<string, unknown>, field: string) =>
      expectError(
        await createSubscription(merchant.owner, merchant.merchantId, subscriptionBody(overrides)),
        400,
        'validation_error',
        [field],
      );
    await refused({ amount: 99 }, 'amount');
    await refused({ interval: 'hour' }, 'interval');
    await refused({ interval_count: 13 }, 'interval_count');
    await refused({ billing_cycles: 1 }, 'billing_cycles');
    await refused({ billing_cycles: 25 }, 'billing_cycles');
    await refused({ days_until_due: 0 }, 'days_until_due');
    await refused({ cancel_after_days: 61 }, 'cancel_after_days');
    await refused({ customer: { phone: '+221331234567', name: 'Awa' } }, 'customer.phone');
    await refused({ customer: { phone: '+221771234567', name: '' } }, 'customer.name');
    expectError(
      await createSubscription(merchant.owner, merchant.merchantId, subscriptionBody(), null),
      400,
      'validation_error',
      ['idempotency-key'],
    );
    const listed = await http().get('/v1/subscriptions', { bearer: merchant.testKey });
    expect(listed.body).toEqual({ object: 'list', data: [], has_more: false });
  });

  it('a developer creates one, defaults applied; the same key and body replay it', async () => {
    const merchant = await newMerchant('Fibre Dakar');
    const developer = await addDeveloper(http(), merchant.owner, merchant.merchantId);
    const key = idempotencyKey();
    const body = subscriptionBody({ billing_cycles: 3, metadata: { contract: '1042' } });
    const created = await createSubscription(developer, merchant.merchantId, body, key);
    expect(created.status).toBe(201);
    const sub = created.body;
    expect(sub).toEqual({
      id: expect.stringMatching(/^sub_\w{20,}$/),
      object: 'subscription',
      livemode: false,
      status: 'active',
      customer: { phone: '+221771234567', name: 'Awa Diop', email: null },
      amount: 10_000,
      currency: 'XOF',
      interval: 'month',
      interval_count: 1,
      billing_cycles: 3,
      cycles_paid: 0,
      current_period_start: sub.created_at,
      current_period_end: expect.stringMatching(ISO),
      next_invoice_at: sub.current_period_end,
      cancel_at_period_end: false,
      canceled_at: null,
      completed_at: null,
      days_until_due: 3,
      cancel_after_days: 14,
      description: null,
      client_reference: null,
      metadata: { contract: '1042' },
      latest_invoice: {
        id: expect.stringMatching(/^in_\w{24,}$/),
        object: 'invoice',
        livemode: false,
        subscription: sub.id,
        period_index: 0,
        period_start: sub.created_at,
        period_end: sub.current_period_end,
        amount: 10_000,
        currency: 'XOF',
        status: 'open',
        payment: null,
        hosted_invoice_url: `${service.url}/invoices/${sub.latest_invoice.id}/pay`,
        due_at: at(sub.created_at, 3),
        grace_ends_at: at(sub.created_at, 17),
        paid_at: null,
        reminders_sent: 0,
        created_at: sub.created_at,
      },
      created_at: expect.stringMatching(ISO),
    });
    expect(await getSubscription(http(), merchant.testKey, sub.id)).toEqual(sub);
    const replayed = await createSubscription(developer, merchant.merchantId, body, key);
    expect({ status: replayed.status, body: replayed.body }).toEqual({ status: 201, body: sub });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    const conflict = await createSubscription(
      developer,
      merchant.merchantId,
      { ...body, amount: 20_000 },
      key,
    );
    expectError(conflict, 409, 'idempotency_conflict');
    const listed = await http().get('/v1/subscriptions', { bearer: merchant.testKey });
    expect(listed.body.data.map((s: BillingObject) => s.id)).toEqual([sub.id]);
  });
});

describeWithChromium('a 2-cycle subscription paid on the hosted invoice page', (executablePath) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium(executablePath);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('pays in Chromium at phone width, opens and pays the second invoice, then completes', async () => {
    const merchant = await newMerchant('Fibre Keur Massar');
    const sub = await newSubscription(merchant, {
      billing_cycles: 2,
      description: 'Abonnement fibre',
    });
    const first = sub.latest_invoice;
    const [created] = await awaitEvents(http(), merchant.testKey, 'invoice.created', first.id);
    expect(created.data.object).toEqual(first);

    const { page, errors } = await phonePage(browser);
    await page.goto(first.hosted_invoice_url);
    const shown = await page.textContent('body');
    expect(shown).toContain('Fibre Keur Massar');
    expect(shown).toContain('Abonnement fibre');
    expect(shown).toMatch(/10\s000\sFCFA/);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
      390,
    );
    await page.click('[data-action="pay"]');
    await page.waitForURL(/\/checkout\/pay_\w+\?cs=/);
    const paymentId = new URL(page.url()).pathname.split('/').pop() as string;
    await page.click('[data-provider="wave"]');
    await page.waitForURL(/\/sandbox\/wave\/pay_/);
    await page.click('[data-action="approve"]');
    await page.waitForURL(first.hosted_invoice_url);

    const paid = await invoiceReaching(merchant, first.id, 'paid');
    expect(paid).toEqual({
      ...first,
      status: 'paid',
      payment: paymentId,
      paid_at: expect.stringMatching(ISO),
    });
    await page.reload();
    expect(await page.textContent('[data-status]')).toBe('Payée');
    expect(errors).toEqual([]);
    await page.close();

    const payment = await getPayment(http(), merchant.testKey, paymentId);
    expect(payment).toMatchObject({
      status: 'succeeded',
      amount: 10_000,
      provider: 'wave',
      metadata: { subscription: sub.id, invoice: first.id },
    });
    const [invoicePaid] = await awaitEvents(http(), merchant.testKey, 'invoice.paid', first.id);
    expect(invoicePaid).toMatchObject({ type: 'invoice.paid', livemode: false });
    expect(invoicePaid.data.object).toEqual(paid);
    await expectBalance(http(), merchant.testKey, { available: payment.net, pending: 0 });
    expect(await getSubscription(http(), merchant.testKey, sub.id)).toMatchObject({
      status: 'active',
      cycles_paid: 1,
      next_invoice_at: sub.current_period_end,
    });

    // The first invoice is paid: the next billing event is the second period's start.
    const second = await advance(http(), merchant.testKey, sub.id);
    expect(second).toMatchObject({
      status: 'active',
      cycles_paid: 1,
      current_period_start: sub.current_period_end,
      next_invoice_at: null,
      latest_invoice: { period_index: 1, status: 'open', period_start: sub.current_period_end },
    });
    const opened = await eventsAbout(
      http(),
      merchant.testKey,
      'invoice.created',
      second.latest_invoice.id,
    );
    expect(opened.map((event) => event.data.object)).toEqual([second.latest_invoice]);

    const { paymentId: secondPayment } = await startInvoiceCheckout(
      service.url,
      second.latest_invoice.id,
    );
    const helped = await testHelper(http(), merchant.testKey, secondPayment, 'succeed');
    await invoiceReaching(merchant, second.latest_invoice.id, 'paid');
    const completed = await eventually(
      () => getSubscription(http(), merchant.testKey, sub.id),
      (seen) => seen.status === 'completed',
    );
    expect(completed).toMatchObject({
      status: 'completed',
      cycles_paid: 2,
      completed_at: expect.stringMatching(ISO),
      next_invoice_at: null,
      canceled_at: null,
    });
    const [done] = await awaitEvents(http(), merchant.testKey, 'subscription.completed', sub.id);
    expect(done.data.object).toEqual(completed);
    await expectBalance(http(), merchant.testKey, {
      available: payment.net + helped.net,
      pending: 0,
    });

    // Nothing is left to happen: an advance changes nothing and emits nothing.
    expect(await advance(http(), merchant.testKey, sub.id)).toEqual(completed);
    const invoices = await http().get(`/v1/invoices?subscription=${sub.id}`, {
      bearer: merchant.testKey,
    });
    expect(invoices.body.data).toHaveLength(2);
  });
});

describe('an invoice left unpaid', () => {
  it('reminds, goes overdue and past_due, then is uncollectible and the subscription canceled', async () => {
    const merchant = await newMerchant();
    const sub = await newSubscription(merchant);
    const invoiceId = sub.latest_invoice.id;
    const steps: Array<[string, string, number]> = [];
    let last = sub;
    for (let i = 0; i < 7; i++) {
      last = await advance(http(), merchant.testKey, sub.id);
      steps.push([last.status, last.latest_invoice.status, last.latest_invoice.reminders_sent]);
      if (i === 1) {
        // due_at: the second reminder, overdue and past_due at once.
        const [overdue] = await eventsAbout(http(), merchant.testKey, 'invoice.overdue', invoiceId);
        expect(overdue?.data.object).toEqual(last.latest_invoice);
        const [pastDue] = await eventsAbout(
          http(),
          merchant.testKey,
          'subscription.past_due',
          sub.id,
        );
        expect(pastDue?.data.object).toEqual(last);
        const late = await invoicePage(service.url, invoiceId);
        expect(late.text).toContain('data-action="pay"');
        expect(late.text).toContain('<dd data-status="open">En retard</dd>');
        expect(late.text).toContain(
          `<dt>Date limite</dt><dd>${formatFrenchDate(last.latest_invoice.grace_ends_at)}</dd>`,
        );
      }
      if (i === 0) {
        const early = await invoicePage(service.url, invoiceId);
        expect(early.text).toContain('<dd data-status="open">À payer</dd>');
        expect(early.text).not.toContain('Date limite');
      }
    }
    // due−1d, due, due+3d, +6d, +9d, +12d (6 reminders), then the grace end (due+14d).
    expect(steps).toEqual([
      ['active', 'open', 1],
      ['past_due', 'open', 2],
      ['past_due', 'open', 3],
      ['past_due', 'open', 4],
      ['past_due', 'open', 5],
      ['past_due', 'open', 6],
      ['canceled', 'uncollectible', 6],
    ]);
    expect(last).toMatchObject({
      canceled_at: sub.latest_invoice.grace_ends_at,
      next_invoice_at: null,
      latest_invoice: { period_index: 0, payment: null, paid_at: null },
    });
    const [canceled] = await eventsAbout(http(), merchant.testKey, 'subscription.canceled', sub.id);
    expect(canceled?.data.object).toEqual(last);
    expect(await advance(http(), merchant.testKey, sub.id)).toEqual(last);

    const shown = await invoicePage(service.url, invoiceId);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Cette facture ne peut plus être payée');
    expect(shown.text).toContain('Le délai de paiement est dépassé');
    expect(shown.text).not.toContain('data-action="pay"');
    const posted = await postInvoicePage(service.url, invoiceId);
    expect({ status: posted.status, location: posted.headers.get('location') }).toEqual({
      status: 409,
      location: null,
    });
    expect(posted.text).toContain('Facture non payable');
    expect((await getInvoice(http(), merchant.testKey, invoiceId)).payment).toBeNull();
  });
});

describe('test-mode guards', () => {
  it('test_advance with a live key, or on the live dashboard, is 403 forbidden and moves nothing', async () => {
    const merchant = await newMerchant();
    const sub = await newSubscription(merchant);
    const live = await http().post(`/v1/subscriptions/${sub.id}/test_advance`, {
      bearer: merchant.liveKey,
      idempotencyKey: idempotencyKey(),
    });
    expectError(live, 403, 'forbidden');
    const dashboard = (mode: string) =>
      merchant.owner.post(
        `/dashboard/v1/merchants/${merchant.merchantId}/${mode}/subscriptions/${sub.id}/test_advance`,
        { idempotencyKey: idempotencyKey() },
      );
    expectError(await dashboard('live'), 403, 'forbidden');
    expect(await getSubscription(http(), merchant.testKey, sub.id)).toEqual(sub);
    const moved = await dashboard('test');
    expect(moved.status).toBe(200);
    expect(moved.body.latest_invoice.reminders_sent).toBe(1);
  });
});
