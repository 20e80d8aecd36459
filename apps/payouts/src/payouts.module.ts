import { Module } from '@nestjs/common';
import { BalanceReader, Ledger } from '@xaalis/ledger';
import { HttpEdgeModule } from '@xaalis/http';
import { AgentKeyStore } from '@xaalis/payouts-application';
import { AgentKeysHandler } from './agent-keys.handler';
import { BalanceHandler } from './balance.handler';
import { LedgerHandler } from './ledger.handler';

/** Payouts, agent wallets and the merchant balance ledger. */
@Module({
  imports: [HttpEdgeModule.forRoot()],
  controllers: [BalanceHandler, LedgerHandler, AgentKeysHandler],
  providers: [BalanceReader, Ledger, AgentKeyStore],
})
export class PayoutsModule {}
