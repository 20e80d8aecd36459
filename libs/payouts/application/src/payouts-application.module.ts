import { Module } from '@nestjs/common';
import { CONFIG, type XaalisConfig } from '@xaalis/config';
import type { Projection } from '@xaalis/database';
import { Ledger } from '@xaalis/ledger';
import { createLivePayoutProviders } from '@xaalis/payout-providers';
import { projectionRunnerProviders } from '@xaalis/runtime';
import { AgentKeyStore } from './agent-key.store';
import { AgentPayoutsService } from './agent-payouts.service';
import { AgentWalletsService } from './agent-wallets.service';
import { DirectPayoutsService } from './direct-payouts.service';
import { payoutJobProviders } from './jobs/payout-job-scheduler';
import { PayoutHolds } from './payout-holds';
import { PayoutOutcomes } from './payout-outcomes';
import { PayoutsCommands } from './payouts.commands';
import { payoutsProjection } from './payouts.projection';
import { PayoutsQueries } from './payouts.queries';
import { PayoutsForwarder } from './payouts-forwarder';
import { PayoutsService } from './payouts.service';
import {
  LIVE_PAYOUT_PROVIDERS,
  PAYOUT_JOB_SCHEDULER,
  PAYOUTS_PROJECTION_RUNNER,
} from './payouts.tokens';

/** For the replay registry and the payouts module's own runner. */
export function payoutsProjections(): Projection[] {
  return [payoutsProjection];
}

/**
 * Agent wallets and payouts (an agent's, and those other contexts make for their own account):
 * the two deciders behind their use cases, the read models, the durable jobs and their
 * scheduler, the live payout adapters and the forwarder of payout events. Needs CONFIG, CLOCK,
 * PG_POOL, PRISMA, EVENT_STORE and BUS_CLIENT from the composition root.
 */
@Module({
  providers: [
    ...projectionRunnerProviders(PAYOUTS_PROJECTION_RUNNER, 'Payouts', payoutsProjections),
    {
      provide: LIVE_PAYOUT_PROVIDERS,
      inject: [CONFIG],
      useFactory: (config: XaalisConfig) => createLivePayoutProviders(config),
    },
    Ledger,
    AgentKeyStore,
    PayoutsCommands,
    PayoutsQueries,
    PayoutHolds,
    PayoutOutcomes,
    AgentWalletsService,
    AgentPayoutsService,
    DirectPayoutsService,
    PayoutsService,
    ...payoutJobProviders,
    PayoutsForwarder,
  ],
  exports: [
    Ledger,
    AgentKeyStore,
    AgentWalletsService,
    AgentPayoutsService,
    DirectPayoutsService,
    PayoutsService,
    PAYOUT_JOB_SCHEDULER,
    PAYOUTS_PROJECTION_RUNNER,
  ],
})
export class PayoutsApplicationModule {}
