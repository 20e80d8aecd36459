import { Module } from '@nestjs/common';
import type { Projection } from '@xaalis/database';
import { projectionRunnerProviders } from '@xaalis/runtime';
import { BillingCommands } from './billing.commands';
import { BillingForwarder } from './billing-forwarder';
import { billingProjection } from './billing.projection';
import { BillingQueries } from './billing.queries';
import { BillingViews } from './billing-views';
import { BILLING_JOB_SCHEDULER, BILLING_PROJECTION_RUNNER } from './billing.tokens';
import { InvoicePayments } from './invoice-payments';
import { InvoicesService } from './invoices.service';
import { billingJobProviders } from './jobs/billing-job-scheduler';
import { PublishedEvents } from './published-events';
import { SubscriptionsService } from './subscriptions.service';

/** For the replay registry and the billing module's own runner. */
export function billingProjections(): Projection[] {
  return [billingProjection];
}

/**
 * Subscriptions and their invoices: the decider behind its use cases, the read models, the
 * billing clock on the shared scheduler, and the forwarder of invoice and subscription events.
 * Needs CONFIG, CLOCK, PG_POOL, PRISMA, EVENT_STORE and BUS_CLIENT from the composition root.
 */
@Module({
  providers: [
    ...projectionRunnerProviders(BILLING_PROJECTION_RUNNER, 'Billing', billingProjections),
    BillingCommands,
    BillingQueries,
    BillingViews,
    PublishedEvents,
    SubscriptionsService,
    InvoicesService,
    InvoicePayments,
    ...billingJobProviders,
    BillingForwarder,
  ],
  exports: [
    SubscriptionsService,
    InvoicesService,
    InvoicePayments,
    BILLING_JOB_SCHEDULER,
    BILLING_PROJECTION_RUNNER,
  ],
})
export class BillingApplicationModule {}
