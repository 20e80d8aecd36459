import { Module } from '@nestjs/common';
import { HttpEdgeModule } from '@xaalis/http';

/** Payments: create to settlement, hosted checkout, providers, refunds (issue 3). */
@Module({
  imports: [HttpEdgeModule.forRoot()],
})
export class PaymentsModule {}
