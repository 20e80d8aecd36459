import { Module } from '@nestjs/common';
import { CONFIG, type XaalisConfig } from '@xaalis/config';
import type { Projection } from '@xaalis/database';
import { createLivePaymentProviders } from '@xaalis/payment-providers';
import { projectionRunnerProviders } from '@xaalis/runtime';
import { paymentJobProviders, PAYMENT_JOB_SCHEDULER } from './jobs/payment-job-scheduler';
import { PaymentLinker } from './payment-links';
import { PaymentCommands } from './payment.commands.service';
import { PaymentQueries } from './payment.queries';
import { paymentsProjection } from './payments.projection';
import { PaymentsForwarder } from './payments-forwarder';
import { CustomerPaymentsService } from './customer-payments.service';
import { PaymentsService } from './payments.service';
import { LIVE_PROVIDERS, PAYMENTS_PROJECTION_RUNNER } from './payments.tokens';
import { ProviderOutcomes } from './provider-outcomes';
import { ProviderStarter } from './provider-starter';
import { RefundsService } from './refunds.service';

/** For the replay registry and the payments module's own runner. */
export function paymentsProjections(): Projection[] {
  return [paymentsProjection];
}

/**
 * The payments context: the payment decider behind its use cases, the read model, the durable
 * jobs and their scheduler, the live providers and the forwarder of payment events. Needs
 * CONFIG, CLOCK, PG_POOL, PRISMA, EVENT_STORE and BUS_CLIENT from the composition root.
 */
@Module({
  providers: [
    ...projectionRunnerProviders(PAYMENTS_PROJECTION_RUNNER, 'Payments', paymentsProjections),
    {
      provide: LIVE_PROVIDERS,
      inject: [CONFIG],
      useFactory: (config: XaalisConfig) => createLivePaymentProviders(config),
    },
    PaymentLinker,
    PaymentQueries,
    PaymentCommands,
    ProviderStarter,
    PaymentsService,
    CustomerPaymentsService,
    ProviderOutcomes,
    RefundsService,
    ...paymentJobProviders,
    PaymentsForwarder,
  ],
  exports: [
    PaymentsService,
    CustomerPaymentsService,
    ProviderOutcomes,
    RefundsService,
    PAYMENT_JOB_SCHEDULER,
    PAYMENTS_PROJECTION_RUNNER,
  ],
})
export class PaymentsApplicationModule {}
