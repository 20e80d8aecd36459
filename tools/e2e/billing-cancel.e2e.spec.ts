import {
  advance,
  awaitEvents,
  cancel,
  eventsAbout,
  getInvoice,
  getSubscription,
  invoicePage,
  newSubscription,
  postInvoicePage,
  startInvoiceCheckout,
  type BillingObject,
} from './support/billing';
import {
  closeWithLedgerBalanced,
  startInProcessService,
  type InProcessService,
} from './support/in-process-service';
import { merchantFactory, type TestMerchant } from './support/merchant';
import { eventually, expectBalance, expectError, getPayment, testHelper } from './support/payments';

/**
 * Spec 3.2, 3.3, 4.2 and CONTRACT 7: cancelling a subscription at its period's end or now, with
 * and without a payment in flight; and the invoice and subscription lists.
 */
describe('cancelling subscriptions, and the billing lists', () => {
  let service: InProcessService;
  const newMerchant = merchantFactory(() => service.http);
  const http = () => service.http;

  beforeAll(async () => {
    service = await startInProcessService();
  });
  afterAll(() => closeWithLedgerBalanced(service));

  const invoiceReaching = async (merchant: TestMerchant, id: string, status: string) => {
    const invoice = await eventually(
      () => getInvoice(http(), merchant.testKey, id),
      (seen) => seen.status === status,
    );
    expect({ id, status: invoice.status }).toEqual({ id, status });
    return invoice;
  };

  /** "Payer" on the invoice page, then Wave chosen on the public pay step: `processing`. */
  const paymentWithProvider = async (merchant: TestMerchant, invoiceId: string) => {
    const { paymentId, cs } = await startInvoiceCheckout(service.url, invoiceId);
    const chosen = await http().post(
      `/v1/public/payments/${paymentId}/pay?cs=${encodeURIComponent(cs)}`,
      { body: { provider: 'wave' } },
    );
    expect({ status: chosen.status, payment: chosen.body.status }).toEqual({
      status: 200,
      payment: 'processing',
    });
    expect((await getInvoice(http(), merchant.testKey, invoiceId)).payment).toBe(paymentId);
    return paymentId;
  };

  it('at period end: no next invoice, the current one still payable; canceled at the period end', async () => {
    const merchant = await newMerchant();
    const sub = await newSubscription(merchant);
    const scheduled = await cancel(http(), merchant.testKey, sub.id, true);
    expect(scheduled).toEqual({
      ...sub,
      cancel_at_period_end: true,
      next_invoice_at: null,
    });
    expect(await eventsAbout(http(), merchant.testKey, 'subscription.canceled', sub.id)).toEqual(
      [],
    );
    const page = await invoicePage(service.url, sub.latest_invoice.id);
    expect(page.text).toContain('data-action="pay"');
    const { paymentId } = await startInvoiceCheckout(service.url, sub.latest_invoice.id);
    const paid = await testHelper(http(), merchant.testKey, paymentId, 'succeed');
    await invoiceReaching(merchant, sub.latest_invoice.id, 'paid');
    await expectBalance(http(), merchant.testKey, { available: paid.net, pending: 0 });

    // Paid: the next billing event is the period's end, which cancels instead of invoicing.
    const ended = await advance(http(), merchant.testKey, sub.id);
    expect(ended).toMatchObject({
      status: 'canceled',
      canceled_at: sub.current_period_end,
      cancel_at_period_end: true,
      cycles_paid: 1,
      next_invoice_at: null,
      current_period_start: sub.current_period_start,
      latest_invoice: { id: sub.latest_invoice.id, status: 'paid' },
    });
    const [canceled] = await awaitEvents(http(), merchant.testKey, 'subscription.canceled', sub.id);
    expect(canceled.data.object).toEqual(ended);
    expect(await advance(http(), merchant.testKey, sub.id)).toEqual(ended);
    const invoices = await http().get(`/v1/invoices?subscription=${sub.id}`, {
      bearer: merchant.testKey,
    });
    expect(invoices.body.data.map((i: BillingObject) => i.id)).toEqual([sub.latest_invoice.id]);
  });

  it('at period end, unpaid (daily, 3 days to pay): canceled at the period end, the invoice payable through grace', async () => {
    const merchant = await newMerchant();
    const sub = await newSubscription(merchant, { interval: 'day' });
    await cancel(http(), merchant.testKey, sub.id, true);
    // The period ends a day in, before the reminder (due − 1 day) and due_at.
    const ended = await advance(http(), merchant.testKey, sub.id);
    expect(ended).toMatchObject({
      status: 'canceled',
      canceled_at: sub.current_period_end,
      next_invoice_at: null,
      latest_invoice: { id: sub.latest_invoice.id, status: 'open', reminders_sent: 0 },
    });
    const { paymentId } = await startInvoiceCheckout(service.url, sub.latest_invoice.id);
    await testHelper(http(), merchant.testKey, paymentId, 'succeed');
    const paid = await invoiceReaching(merchant, sub.latest_invoice.id, 'paid');
    expect(paid.payment).toBe(paymentId);
    expect(await getSubscription(http(), merchant.testKey, sub.id)).toMatchObject({
      status: 'canceled',
      cycles_paid: 1,
      next_invoice_at: null,
      latest_invoice: { id: sub.latest_invoice.id },
    });
  });

  it('now, a payment processing: pending_payment, the invoice stays open, and the payment pays it', async () => {
    const merchant = await newMerchant();
    const sub = await newSubscription(merchant);
    const paymentId = await paymentWithProvider(merchant, sub.latest_invoice.id);
    const canceled = await cancel(http(), merchant.testKey, sub.id, false);
    expect(canceled).toMatchObject({
      status: 'canceled',
      canceled_at: sub.created_at,
      next_invoice_at: null,
      pending_payment: { id: paymentId, status: 'processing' },
      latest_invoice: { status: 'open', payment: paymentId },
    });
    const [event] = await awaitEvents(http(), merchant.testKey, 'subscription.canceled', sub.id);
    const { pending_payment: _once, ...canceledSub } = canceled;
    expect(event.data.object).toEqual(canceledSub);

    const succeeded = await testHelper(http(), merchant.testKey, paymentId, 'succeed');
    const paid = await invoiceReaching(merchant, sub.latest_invoice.id, 'paid');
    expect(paid).toMatchObject({ payment: paymentId, paid_at: expect.any(String) });
    await awaitEvents(http(), merchant.testKey, 'invoice.paid', paid.id);
    await expectBalance(http(), merchant.testKey, { available: succeeded.net, pending: 0 });
    const after = await getSubscription(http(), merchant.testKey, sub.id);
    expect(after).toMatchObject({ status: 'canceled', cycles_paid: 1, next_invoice_at: null });
    expect(await advance(http(), merchant.testKey, sub.id)).toEqual(after);
  });

  it('now, a payment processing that then fails: the invoice is void, no longer payable, no new period', async () => {
    const merchant = await newMerchant();
    const sub = await newSubscription(merchant);
    const invoiceId = sub.latest_invoice.id;
    const paymentId = await paymentWithProvider(merchant, invoiceId);
    expect((await cancel(http(), merchant.testKey, sub.id, false)).pending_payment).toEqual({
      id: paymentId,
      status: 'processing',
    });
    expect((await testHelper(http(), merchant.testKey, paymentId, 'fail')).status).toBe('failed');
    // The invoice was kept open only for the payment in flight: nothing is billed after a cancel
    // now, so its failure voids it.
    const voided = await eventually(
      () => getInvoice(http(), merchant.testKey, invoiceId),
      (seen) => seen.status === 'void',
    );
    expect(voided).toMatchObject({ status: 'void', payment: null, paid_at: null });
    await expectBalance(http(), merchant.testKey, { available: 0, pending: 0 });
    const after = await getSubscription(http(), merchant.testKey, sub.id);
    expect(after).toMatchObject({ status: 'canceled', next_invoice_at: null, cycles_paid: 0 });
    // Nothing is left on its clock: an advance changes nothing.
    const advanced = await advance(http(), merchant.testKey, sub.id);
    expect(advanced).toMatchObject({
      status: 'canceled',
      latest_invoice: { id: invoiceId, period_index: 0, status: 'void', reminders_sent: 0 },
    });
    expect(await eventsAbout(http(), merchant.testKey, 'invoice.created', invoiceId)).toHaveLength(
      1,
    );
    expect((await invoicePage(service.url, invoiceId)).text).not.toContain('data-action="pay"');
    expect((await postInvoicePage(service.url, invoiceId)).status).toBe(409);
  });

  it('now, no payment started, or one not yet with a provider: the open invoice is void and no longer payable', async () => {
    const merchant = await newMerchant();
    const untouched = await newSubscription(merchant);
    const canceled = await cancel(http(), merchant.testKey, untouched.id, false);
    expect(canceled).toMatchObject({
      status: 'canceled',
      latest_invoice: { status: 'void', payment: null },
    });
    // No payment in flight: the answer names none.
    expect(canceled).not.toHaveProperty('pending_payment');
    const page = await invoicePage(service.url, untouched.latest_invoice.id);
    expect(page.text).toContain('Cette facture a été annulée.');
    expect(page.text).not.toContain('data-action="pay"');
    const posted = await postInvoicePage(service.url, untouched.latest_invoice.id);
    expect({ status: posted.status, location: posted.headers.get('location') }).toEqual({
      status: 409,
      location: null,
    });

    const started = await newSubscription(merchant);
    const { paymentId } = await startInvoiceCheckout(service.url, started.latest_invoice.id);
    expect((await getPayment(http(), merchant.testKey, paymentId)).status).toBe(
      'requires_payment_method',
    );
    expect(await cancel(http(), merchant.testKey, started.id, false)).toMatchObject({
      status: 'canceled',
      latest_invoice: { status: 'void', payment: paymentId },
    });
    expect(await advance(http(), merchant.testKey, started.id)).toEqual(
      await getSubscription(http(), merchant.testKey, started.id),
    );
  });

  it('a canceled subscription cancels again as a no-op; a completed one is 409 invalid_state', async () => {
    const merchant = await newMerchant();
    const sub = await newSubscription(merchant);
    const first = await cancel(http(), merchant.testKey, sub.id, false);
    expect(await cancel(http(), merchant.testKey, sub.id, false)).toEqual(first);

    const plan = await newSubscription(merchant, { billing_cycles: 2 });
    const payNow = async (invoiceId: string) => {
      const { paymentId } = await startInvoiceCheckout(service.url, invoiceId);
      await testHelper(http(), merchant.testKey, paymentId, 'succeed');
      await invoiceReaching(merchant, invoiceId, 'paid');
    };
    await payNow(plan.latest_invoice.id);
    await payNow((await advance(http(), merchant.testKey, plan.id)).latest_invoice.id);
    const completed = await eventually(
      () => getSubscription(http(), merchant.testKey, plan.id),
      (seen) => seen.status === 'completed',
    );
    expect(completed.status).toBe('completed');
    const refused = await http().post(`/v1/subscriptions/${plan.id}/cancel`, {
      bearer: merchant.testKey,
      idempotencyKey: `cancel-${plan.id}`,
      body: { at_period_end: false },
    });
    expectError(refused, 409, 'invalid_state');
    expect(await getSubscription(http(), merchant.testKey, plan.id)).toEqual(completed);
    const unknown = await http().post('/v1/subscriptions/sub_00000000000000000000000000/cancel', {
      bearer: merchant.testKey,
      idempotencyKey: `unknown-${sub.id}`,
      body: { at_period_end: false },
    });
    expectError(unknown, 404, 'not_found');
  });

  it('lists invoices newest first with filters, and canceled subscriptions', async () => {
    const merchant = await newMerchant();
    const sub = await newSubscription(merchant);
    const first = sub.latest_invoice;
    const { paymentId } = await startInvoiceCheckout(service.url, first.id);
    await testHelper(http(), merchant.testKey, paymentId, 'succeed');
    await invoiceReaching(merchant, first.id, 'paid');
    const second = (await advance(http(), merchant.testKey, sub.id)).latest_invoice;
    expect(second.period_index).toBe(1);
    const other = await newSubscription(merchant, { interval: 'week' });
    const ids = async (query: string) => {
      const page = await http().get(`/v1/invoices?${query}`, { bearer: merchant.testKey });
      expect(page.status).toBe(200);
      return { ids: page.body.data.map((i: BillingObject) => i.id), has_more: page.body.has_more };
    };
    expect(await ids(`subscription=${sub.id}`)).toEqual({
      ids: [second.id, first.id],
      has_more: false,
    });
    expect(await ids(`subscription=${sub.id}&limit=1`)).toEqual({
      ids: [second.id],
      has_more: true,
    });
    expect(await ids(`subscription=${sub.id}&starting_after=${second.id}`)).toEqual({
      ids: [first.id],
      has_more: false,
    });
    expect(await ids(`subscription=${sub.id}&status=paid`)).toEqual({
      ids: [first.id],
      has_more: false,
    });
    // By `created_at`, on each subscription's own clock: the advanced one's second invoice opened
    // a month later than the other's first, which was made after it in real time.
    expect(await ids('status=open')).toEqual({
      ids: [second.id, other.latest_invoice.id],
      has_more: false,
    });
    const unknown = `in_${'0'.repeat(26)}0000`;
    expectError(
      await http().get(`/v1/invoices?starting_after=${unknown}`, { bearer: merchant.testKey }),
      404,
      'not_found',
    );

    const ended = await cancel(http(), merchant.testKey, other.id, false);
    expect(ended).toMatchObject({ status: 'canceled' });
    expect(ended).not.toHaveProperty('pending_payment');
    const canceled = await http().get('/v1/subscriptions?status=canceled', {
      bearer: merchant.testKey,
    });
    const { pending_payment: _answeredOnce, ...endedSub } = ended;
    expect(canceled.body).toEqual({ object: 'list', data: [endedSub], has_more: false });
    const active = await http().get('/v1/subscriptions?status=active', {
      bearer: merchant.testKey,
    });
    expect(active.body.data.map((s: BillingObject) => s.id)).toEqual([sub.id]);
  });
});
