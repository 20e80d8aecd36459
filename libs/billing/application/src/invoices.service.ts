import { Inject, Injectable } from '@nestjs/common';
import { subscriptionNow, type Invoice, type Subscription } from '@xaalis/billing-domain';
import { BUS_CLIENT, CLOCK } from '@xaalis/config';
import {
  PAYMENTS_CREATE,
  request,
  type BusRequester,
  type InvoiceCheckoutReply,
  type InvoiceCheckoutRequest,
  type InvoiceListReply,
  type InvoiceRef,
  type InvoiceReply,
  type ListInvoicesRequest,
  type PaymentReply,
  type PublicInvoiceRef,
  type PublicInvoiceReply,
} from '@xaalis/contracts';
import { failpoint } from '@xaalis/failpoints';
import { DomainError, invalidState, newId, notFound, type Clock } from '@xaalis/kernel';
import { findInvoicePayment } from './invoice-payment-lookup';
import { BillingCommands } from './billing.commands';
import { BillingQueries } from './billing.queries';
import { BillingViews } from './billing-views';

/** Payment statuses after which an attempt can no longer pay its invoice. */
const DEAD_ATTEMPT = new Set(['failed', 'expired']);

/**
 * Invoices (spec 2.4, 4.2) and their payment from the hosted invoice page (CONTRACT 7): each try
 * is a payment of the payments context, made and followed over the bus.
 */
@Injectable()
export class InvoicesService {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(BUS_CLIENT) private readonly bus: BusRequester,
    private readonly commands: BillingCommands,
    private readonly queries: BillingQueries,
    private readonly views: BillingViews,
  ) {}

  async get(request: InvoiceRef): Promise<InvoiceReply> {
    const { subscription, invoice } = await this.queries.invoice(
      request.merchant_id,
      request.mode,
      request.invoice_id,
    );
    return this.views.invoice(subscription, invoice);
  }

  async list(request: ListInvoicesRequest): Promise<InvoiceListReply> {
    const rows = await this.queries.listInvoices(request.merchant_id, request.mode, {
      limit: request.limit,
      startingAfter: request.starting_after,
      subscription: request.subscription,
      status: request.status,
    });
    return {
      data: rows
        .slice(0, request.limit)
        .map(({ subscription, invoice }) => this.views.invoice(subscription, invoice)),
      has_more: rows.length > request.limit,
    };
  }

  /** What the hosted invoice page shows; its link is the customer's only handle. */
  async publicGet(request: PublicInvoiceRef): Promise<PublicInvoiceReply> {
    const found = await this.queries.findInvoice(request.invoice_id);
    if (!found) throw notFound('invoice');
    const { subscription, invoice } = found;
    const payable = this.payable(subscription, invoice);
    return {
      invoice: this.views.invoice(subscription, invoice),
      merchant_name: subscription.merchantName,
      description: subscription.description,
      interval: subscription.interval,
      interval_count: subscription.intervalCount,
      payable,
      overdue: payable && invoice.overdue,
    };
  }

  /**
   * The customer wants to pay: the hosted checkout of the invoice's current payment attempt, or of
   * a new one when there is none or it failed or expired. The attempt is recorded on the
   * subscription's stream before its payment is made (under the recorded id), so a payment that
   * succeeds always finds its invoice; a crash between the two makes the payment on the next try.
   */
  async checkout(request: InvoiceCheckoutRequest): Promise<InvoiceCheckoutReply> {
    for (let attempt = 0; ; attempt++) {
      const found = await this.queries.findInvoice(request.invoice_id);
      if (!found) throw notFound('invoice');
      const { subscription, invoice } = found;
      if (!this.payable(subscription, invoice)) {
        throw invalidState('This invoice can no longer be paid.', { status: invoice.status });
      }
      if (invoice.payment !== null) {
        const payment =
          (await findInvoicePayment(this.bus, subscription, invoice.payment)) ??
          (await this.createPayment(subscription, invoice, invoice.payment, request.return_url));
        if (!DEAD_ATTEMPT.has(payment.status)) return { checkout_url: payment.checkout_url };
        await this.commands.subscription(subscription.subscriptionId, {
          type: 'RecordInvoicePaymentFailed',
          data: { invoiceId: invoice.invoiceId, paymentId: payment.id, now: this.clock.now() },
        });
      }
      const paymentId = newId('payment');
      try {
        await this.commands.subscription(subscription.subscriptionId, {
          type: 'StartInvoicePayment',
          data: { invoiceId: invoice.invoiceId, paymentId, now: this.clock.now() },
        });
      } catch (error) {
        // Another try started an attempt at the same moment: continue with that one.
        if (attempt === 0 && error instanceof DomainError && error.code === 'invalid_state') {
          continue;
        }
        throw error;
      }
      failpoint('billing.checkout.after_attempt');
      const payment = await this.createPayment(
        subscription,
        invoice,
        paymentId,
        request.return_url,
      );
      return { checkout_url: payment.checkout_url };
    }
  }

  /** Open, and within its grace on the subscription's clock. */
  private payable(subscription: Subscription, invoice: Invoice): boolean {
    const now = subscriptionNow(subscription, this.clock.now()).getTime();
    return invoice.status === 'open' && now < Date.parse(invoice.graceEndsAt);
  }

  /**
   * The invoice's payment, under the attempt's id (a retry finds the payment the first run
   * made). Its metadata names the invoice, so its events find their way back here.
   */
  private createPayment(
    subscription: Subscription,
    invoice: Invoice,
    paymentId: string,
    returnUrl: string,
  ): Promise<PaymentReply> {
    return request(this.bus, PAYMENTS_CREATE, {
      merchant_id: subscription.merchantId,
      mode: subscription.mode,
      payment_id: paymentId,
      merchant_name: subscription.merchantName,
      amount: invoice.amount,
      description: subscription.description ?? undefined,
      client_reference: invoice.invoiceId,
      customer: { phone: subscription.customer.phone, name: subscription.customer.name },
      success_url: returnUrl,
      cancel_url: returnUrl,
      metadata: { subscription: subscription.subscriptionId, invoice: invoice.invoiceId },
    });
  }
}
