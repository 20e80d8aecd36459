import {
  Inject,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { CONFIG, EVENT_STORE, PRISMA, type XaalisConfig } from '@xaalis/config';
import { ProjectionRunner, type PrismaClient, type Projection } from '@xaalis/database';
import type { EventStore } from '@xaalis/event-store';
import { createLivePaymentProviders } from '@xaalis/payment-providers';
import { PaymentJobsWorker } from './payment-jobs.worker';
import { PaymentLinker } from './payment-links';
import { PaymentCommands } from './payment.commands.service';
import { PaymentQueries } from './payment.queries';
import { paymentsProjection } from './payments.projection';
import { PaymentsForwarder } from './payments-forwarder';
import { PaymentsService } from './payments.service';
import { LIVE_PROVIDERS, PAYMENTS_PROJECTION_RUNNER } from './payments.tokens';
import { ProviderStarter } from './provider-starter';
import { RefundsService } from './refunds.service';

/** For the replay registry and the payments module's own runner. */
export function paymentsProjections(): Projection[] {
  return [paymentsProjection];
}

/** Keeps the read model following the streams; every command also catches it up itself. */
class PaymentsProjectionLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(@Inject(PAYMENTS_PROJECTION_RUNNER) private readonly runner: ProjectionRunner) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.runner.stop();
  }
}

/**
 * The payments context: the payment decider behind its use cases, the read model, the durable
 * job worker, the live providers and the forwarder of payment events. Needs CONFIG, CLOCK,
 * PG_POOL, PRISMA, EVENT_STORE and BUS_CLIENT from the composition root.
 */
@Module({
  providers: [
    {
      provide: PAYMENTS_PROJECTION_RUNNER,
      inject: [EVENT_STORE, PRISMA],
      useFactory: (store: EventStore, prisma: PrismaClient) => {
        const logger = new Logger('PaymentsProjections');
        return new ProjectionRunner({
          store,
          prisma,
          projections: paymentsProjections(),
          onError: (name, error) =>
            logger.error(`${name}: ${(error as Error).message ?? String(error)}`),
        });
      },
    },
    {
      provide: LIVE_PROVIDERS,
      inject: [CONFIG],
      useFactory: (config: XaalisConfig) => createLivePaymentProviders(config),
    },
    PaymentsProjectionLifecycle,
    PaymentLinker,
    PaymentQueries,
    PaymentCommands,
    ProviderStarter,
    PaymentsService,
    RefundsService,
    PaymentJobsWorker,
    PaymentsForwarder,
  ],
  exports: [PaymentsService, RefundsService, PaymentJobsWorker, PAYMENTS_PROJECTION_RUNNER],
})
export class PaymentsApplicationModule {}
