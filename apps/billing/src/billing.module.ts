import { Module } from '@nestjs/common';
import { BillingApplicationModule } from '@xaalis/billing-application';
import { HttpEdgeModule } from '@xaalis/http';
import { BillingHandler, InvoicePaymentsHandler } from './billing.handler';

/** Billing: subscriptions and hosted invoices on their own billing clock. */
@Module({
  imports: [HttpEdgeModule.forRoot(), BillingApplicationModule],
  controllers: [BillingHandler, InvoicePaymentsHandler],
})
export class BillingModule {}
