import { Module } from '@nestjs/common';
import { BalanceReader } from '@xaalis/ledger';
import { HttpEdgeModule } from '@xaalis/http';
import { BalanceHandler } from './balance.handler';

/** Payouts, agent wallets and the merchant balance ledger. */
@Module({
  imports: [HttpEdgeModule.forRoot()],
  controllers: [BalanceHandler],
  providers: [BalanceReader],
})
export class PayoutsModule {}
