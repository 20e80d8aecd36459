import { Module } from '@nestjs/common';
import type { Pool } from 'pg';
import { PG_POOL } from '@xaalis/config';
import { DeliveryQueue } from './delivery-queue';
import { DeliveryWorker } from './delivery-worker';
import { WebhookAttempt } from './webhook-attempt';
import { WebhookEventMetrics } from './webhook-event-metrics';
import { WebhookEndpoints } from './webhook-endpoints';
import { WebhookEventsConsumer } from './webhook-events.consumer';
import { WebhookQueries } from './webhook-queries';
import { WebhookSecretsCache } from './webhook-secrets.cache';
import { WebhookTransport } from './webhook-transport';
import { WebhooksService } from './webhooks.service';

/** A class of plain SQL over the pool, kept free of Nest: tests make one with `new`. */
const onPool = <T>(type: new (pool: Pool) => T) => ({
  provide: type,
  inject: [PG_POOL],
  useFactory: (pool: Pool) => new type(pool),
});

/**
 * Webhook dispatch (spec 6): events in, durable deliveries, the sending worker, and the queries
 * the gateway asks for. Needs CONFIG, CLOCK, PG_POOL and BUS_CLIENT from the composition root.
 */
@Module({
  providers: [
    onPool(DeliveryQueue),
    onPool(WebhookEndpoints),
    onPool(WebhookQueries),
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
