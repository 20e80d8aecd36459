import { getInvoice, newSubscription, startInvoiceCheckout } from './support/billing';
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
});
