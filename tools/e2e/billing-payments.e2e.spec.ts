import { armFailpoints, disarmFailpoints } from '@xaalis/failpoints';
import {
  getInvoice,
  newSubscription,
  postInvoicePage,
  startInvoiceCheckout,
} from './support/billing';
import {
  closeWithLedgerBalanced,
  startInProcessService,
  type InProcessService,
} from './support/in-process-service';
import { merchantFactory } from './support/merchant';
import { eventually, expectBalance, testHelper } from './support/payments';

/**
 * Which payments pay an invoice: the ones its hosted page made, and never a payment of another
 * merchant whose metadata names it (metadata is the merchant's to write).
 */
describe('payments of invoices', () => {
  let service: InProcessService;
  const newMerchant = merchantFactory(() => service.http);
  const http = () => service.http;

  beforeAll(async () => {
    service = await startInProcessService();
  });
  afterAll(() => closeWithLedgerBalanced(service));

  it("another merchant's payment naming the invoice in its metadata pays nothing", async () => {
    const owner = await newMerchant();
    const other = await newMerchant();
    const subscription = await newSubscription(owner);
    const invoiceId = subscription.latest_invoice.id as string;

    const forged = await http().post('/v1/payments', {
      bearer: other.testKey,
      body: {
        amount: subscription.amount,
        metadata: { subscription: subscription.id, invoice: invoiceId },
      },
    });
    expect(forged.status).toBe(201);
    const paid = await testHelper(http(), other.testKey, forged.body.id, 'succeed');
    expect(paid.status).toBe('succeeded');
    // The other merchant is credited as for any payment; the invoice is not paid.
    await expectBalance(http(), other.testKey, { available: paid.net, pending: 0 });

    // The owner's own payment, made by the hosted page, is the one that pays it.
    const { paymentId } = await startInvoiceCheckout(service.url, invoiceId);
    expect((await getInvoice(http(), owner.testKey, invoiceId)).status).toBe('open');
    await testHelper(http(), owner.testKey, paymentId, 'succeed');
    const invoice = await eventually(
      () => getInvoice(http(), owner.testKey, invoiceId),
      (seen) => seen.status === 'paid',
    );
    expect(invoice).toMatchObject({ status: 'paid', payment: paymentId });
  });

  it('a confirmed failed attempt is replaced by a new payment on the next try; one that can still pay is reused', async () => {
    const merchant = await newMerchant();
    const subscription = await newSubscription(merchant);
    const invoiceId = subscription.latest_invoice.id as string;

    const first = await startInvoiceCheckout(service.url, invoiceId);
    // Pressing "Payer" again while the attempt can still pay continues with it.
    expect((await startInvoiceCheckout(service.url, invoiceId)).paymentId).toBe(first.paymentId);
    expect((await testHelper(http(), merchant.testKey, first.paymentId, 'fail')).status).toBe(
      'failed',
    );
    await eventually(
      () => getInvoice(http(), merchant.testKey, invoiceId),
      (seen) => seen.payment === null,
    );

    const second = await startInvoiceCheckout(service.url, invoiceId);
    expect(second.paymentId).not.toBe(first.paymentId);
    expect(await getInvoice(http(), merchant.testKey, invoiceId)).toMatchObject({
      status: 'open',
      payment: second.paymentId,
    });
    const paid = await testHelper(http(), merchant.testKey, second.paymentId, 'succeed');
    const invoice = await eventually(
      () => getInvoice(http(), merchant.testKey, invoiceId),
      (seen) => seen.status === 'paid',
    );
    expect(invoice).toMatchObject({ payment: second.paymentId, paid_at: expect.any(String) });
    await expectBalance(http(), merchant.testKey, { available: paid.net, pending: 0 });
  });

  it('a try that died between recording the attempt and making its payment is repaired by the next', async () => {
    const merchant = await newMerchant();
    const subscription = await newSubscription(merchant);
    const invoiceId = subscription.latest_invoice.id as string;

    armFailpoints({ 'billing.checkout.after_attempt': 'throw' });
    try {
      const died = await postInvoicePage(service.url, invoiceId);
      expect(died.status).toBe(500);
    } finally {
      disarmFailpoints();
    }
    // The attempt is on the invoice, and no payment has its id yet.
    const recorded = (await getInvoice(http(), merchant.testKey, invoiceId)).payment as string;
    expect(recorded).toMatch(/^pay_/);
    expect(
      (await http().get(`/v1/payments/${recorded}`, { bearer: merchant.testKey })).status,
    ).toBe(404);

    // The next "Payer" makes that very payment, once.
    const next = await startInvoiceCheckout(service.url, invoiceId);
    expect(next.paymentId).toBe(recorded);
    const payments = await http().get('/v1/payments?limit=10', { bearer: merchant.testKey });
    expect(payments.body.data.map((payment: { id: string }) => payment.id)).toEqual([recorded]);
    await testHelper(http(), merchant.testKey, recorded, 'succeed');
    const invoice = await eventually(
      () => getInvoice(http(), merchant.testKey, invoiceId),
      (seen) => seen.status === 'paid',
    );
    expect(invoice.payment).toBe(recorded);
  });
});
