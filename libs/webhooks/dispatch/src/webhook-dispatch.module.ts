import { Module } from '@nestjs/common';
import type { Pool } from 'pg';
import { PG_POOL } from '@xaalis/config';
import { DeliveryWorker } from './delivery-worker';
import { WebhookAttempt } from './webhook-attempt';
import { WebhookEventMetrics } from './webhook-event-metrics';
import { WebhookEventsConsumer } from './webhook-events.consumer';
import { WebhookSecretsCache } from './webhook-secrets.cache';
import { WebhookStore } from './webhook-store';
import { WebhookTransport } from './webhook-transport';
import { WebhooksService } from './webhooks.service';

/**
 * Webhook dispatch (spec 6): events in, durable deliveries, the sending worker, and the queries
 * the gateway asks for. Needs CONFIG, CLOCK, PG_POOL and BUS_CLIENT from the composition root.
 */
@Module({
  providers: [
    {
      provide: WebhookStore,
      inject: [PG_POOL],
      useFactory: (pool: Pool) => new WebhookStore(pool),
    },
    WebhookSecretsCache,
    WebhookTransport,
    WebhookAttempt,
    DeliveryWorker,
    WebhookEventMetrics,
    WebhookEventsConsumer,
    WebhooksService,
  ],
  exports: [WebhookEventsConsumer, WebhooksService, DeliveryWorker],
})
export class WebhookDispatchModule {}
