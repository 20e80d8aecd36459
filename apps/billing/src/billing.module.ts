import { Module } from '@nestjs/common';
import { HttpEdgeModule } from '@xaalis/http';

/** Billing: subscriptions and hosted invoices on their own billing clock. */
@Module({
  imports: [HttpEdgeModule.forRoot()],
})
export class BillingModule {}
