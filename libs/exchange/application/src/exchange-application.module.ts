import { Module } from '@nestjs/common';
import type { Projection } from '@xaalis/database';
import { projectionRunnerProviders } from '@xaalis/runtime';
import { ExchangeAccountService } from './exchange-account.service';
import { ExchangeCommands } from './exchange.commands';
import { ExchangeMoney } from './exchange-money';
import { ExchangeProgress } from './exchange-progress';
import { exchangeProjection } from './exchange.projection';
import { ExchangeQueries } from './exchange.queries';
import { EXCHANGE_JOB_SCHEDULER, EXCHANGE_PROJECTION_RUNNER } from './exchange.tokens';
import { ExchangesService } from './exchanges.service';
import { exchangeJobProviders } from './jobs/exchange-job-scheduler';
import { QuotesService } from './quotes.service';

/** For the replay registry and the exchange module's own runner. */
export function exchangeProjections(): Projection[] {
  return [exchangeProjection];
}

/**
 * The public test-mode exchange (CONTRACT 8): quotes, the exchange's process manager, its steps on
 * the shared scheduler, the service's own account. Talks to payments and payouts over the bus
 * only. Needs CONFIG, CLOCK, PG_POOL, PRISMA, EVENT_STORE and BUS_CLIENT from the composition root.
 */
@Module({
  providers: [
    ...projectionRunnerProviders(EXCHANGE_PROJECTION_RUNNER, 'Exchange', exchangeProjections),
    ExchangeCommands,
    ExchangeQueries,
    ExchangeAccountService,
    ExchangeMoney,
    QuotesService,
    ExchangesService,
    ExchangeProgress,
    ...exchangeJobProviders,
  ],
  exports: [
    QuotesService,
    ExchangesService,
    ExchangeProgress,
    ExchangeAccountService,
    EXCHANGE_JOB_SCHEDULER,
    EXCHANGE_PROJECTION_RUNNER,
  ],
})
export class ExchangeApplicationModule {}
