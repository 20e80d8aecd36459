import { Module } from '@nestjs/common';
import { HttpEdgeModule } from '@xaalis/http';
import { PaymentsApplicationModule } from '@xaalis/payments-application';
import { PaymentsHandler } from './payments.handler';

/** Payments: create to settlement, hosted checkout, providers, refunds. */
@Module({
  imports: [HttpEdgeModule.forRoot(), PaymentsApplicationModule],
  controllers: [PaymentsHandler],
})
export class PaymentsModule {}
