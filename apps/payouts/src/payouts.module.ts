import { Module } from '@nestjs/common';
import { BalanceReader, Ledger } from '@xaalis/ledger';
import { HttpEdgeModule } from '@xaalis/http';
import { BalanceHandler } from './balance.handler';
import { LedgerHandler } from './ledger.handler';

/** Payouts, agent wallets and the merchant balance ledger. */
@Module({
  imports: [HttpEdgeModule.forRoot()],
  controllers: [BalanceHandler, LedgerHandler],
  providers: [BalanceReader, Ledger],
})
export class PayoutsModule {}
