import { Module } from '@nestjs/common';
import { BalanceReader } from '@xaalis/ledger';
import { HttpEdgeModule } from '@xaalis/http';
import { PayoutsApplicationModule } from '@xaalis/payouts-application';
import { AgentKeysHandler } from './agent-keys.handler';
import { AgentWalletsHandler } from './agent-wallets.handler';
import { BalanceHandler } from './balance.handler';
import { LedgerHandler } from './ledger.handler';
import { PayoutsHandler } from './payouts.handler';

/** Payouts, agent wallets and the merchant balance ledger. */
@Module({
  imports: [HttpEdgeModule.forRoot(), PayoutsApplicationModule],
  controllers: [
    BalanceHandler,
    LedgerHandler,
    AgentKeysHandler,
    AgentWalletsHandler,
    PayoutsHandler,
  ],
  providers: [BalanceReader],
})
export class PayoutsModule {}
