import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK } from '@xaalis/config';
import type { PaymentReply } from '@xaalis/contracts';
import { DomainError, type Clock } from '@xaalis/kernel';
import { BillingCommands } from './billing.commands';
import { BillingQueries } from './billing.queries';

/**
 * What the payments context reports of an invoice's payments (`payment.succeeded`, `.failed`,
 * `.expired`), applied to the invoice on its subscription's stream. The payment names its invoice
 * in its metadata; the subscription's merchant must be the payment's, and the decider records
 * each payment once, whatever the bus redelivers.
 */
@Injectable()
export class InvoicePayments {
  private readonly logger = new Logger('InvoicePayments');

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly commands: BillingCommands,
    private readonly queries: BillingQueries,
  ) {}

  async succeeded(merchantId: string, payment: PaymentReply): Promise<void> {
    const target = await this.invoiceOf(merchantId, payment);
    if (!target) return;
    await this.commands.subscription(target.subscriptionId, {
      type: 'RecordInvoicePaid',
      data: {
        invoiceId: target.invoiceId,
        paymentId: payment.id,
        paidAt: payment.succeeded_at ? new Date(payment.succeeded_at) : this.clock.now(),
      },
    });
  }

  /** Failed or expired: the attempt may be replaced by a new one on the customer's next try. */
  async ended(merchantId: string, payment: PaymentReply): Promise<void> {
    const target = await this.invoiceOf(merchantId, payment);
    if (!target) return;
    try {
      await this.commands.subscription(target.subscriptionId, {
        type: 'RecordInvoicePaymentFailed',
        data: { invoiceId: target.invoiceId, paymentId: payment.id, now: this.clock.now() },
      });
    } catch (error) {
      // An invoice no longer open has nothing to replace: the report changes nothing.
      if (error instanceof DomainError && error.code === 'invalid_state') return;
      throw error;
    }
  }

  private async invoiceOf(
    merchantId: string,
    payment: PaymentReply,
  ): Promise<{ subscriptionId: string; invoiceId: string } | undefined> {
    const invoiceId = payment.metadata['invoice'];
    if (invoiceId === undefined) return undefined;
    const found = await this.queries.findInvoice(invoiceId);
    if (!found || found.subscription.merchantId !== merchantId) {
      this.logger.warn(
        `payment ${payment.id} names invoice ${invoiceId}, not one of its merchant's`,
      );
      return undefined;
    }
    return { subscriptionId: found.subscription.subscriptionId, invoiceId };
  }
}
