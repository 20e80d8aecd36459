import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { processOnce } from '@xaalis/bus';
import { CLOCK, PG_POOL } from '@xaalis/config';
import { validateIntegrationEvent } from '@xaalis/contracts';
import { modeOf, type Clock } from '@xaalis/kernel';
import { DeliveryWorker } from './delivery-worker';
import { WebhookEventMetrics } from './webhook-event-metrics';
import { recordEvent, upsertDefaultEndpoint } from './webhook-intake';

export const WEBHOOKS_CONSUMER = 'webhooks.dispatch';

/**
 * Turns integration events into durable deliveries. The processed-message mark, the stored
 * event and its deliveries commit together, so a redelivered event creates nothing twice and a
 * crash before the commit loses nothing (the bus delivers it again). An event no endpoint wanted
 * is still recorded, and counted and logged as such.
 */
@Injectable()
export class WebhookEventsConsumer {
  private readonly logger = new Logger('WebhookEvents');

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly worker: DeliveryWorker,
    private readonly metrics: WebhookEventMetrics,
  ) {}

  async receive(payload: unknown): Promise<void> {
    const event = validateIntegrationEvent(payload);
    const mode = modeOf(event.livemode);
    if (event.type === 'account.updated') {
      // Usually a repeat: PATCH /v1/account set the endpoint before answering. This covers a
      // PATCH whose request got no answer.
      await processOnce(this.pool, WEBHOOKS_CONSUMER, event.id, (tx) =>
        upsertDefaultEndpoint(tx, {
          merchantId: event.merchant_id,
          mode,
          url: event.data.object.webhook_url ?? null,
          at: new Date(event.created_at),
        }),
      );
      return;
    }
    let matched = 0;
    const recorded = await processOnce(this.pool, WEBHOOKS_CONSUMER, event.id, async (tx) => {
      matched = await recordEvent(tx, event, this.clock.now());
    });
    if (!recorded) return;
    this.metrics.eventRecorded(event.type, matched);
    if (matched === 0) {
      const what = `${event.id} (${event.type}) of ${event.merchant_id} ${mode}`;
      this.logger.debug(`${what} recorded with no endpoint wanting it`);
      return;
    }
    this.worker.wake();
  }
}
