import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import { StatementBatcher } from '@xaalis/batching';
import { processEachOnce, processOnce } from '@xaalis/bus';
import { CLOCK, PG_POOL } from '@xaalis/config';
import { validateIntegrationEvent, type IntegrationEvent } from '@xaalis/contracts';
import { modeOf, type Clock } from '@xaalis/kernel';
import { DeliveryWorker } from './delivery-worker';
import { WebhookEventMetrics } from './webhook-event-metrics';
import { recordEvent, recordEvents, upsertDefaultEndpoint } from './webhook-intake';

export const WEBHOOKS_CONSUMER = 'webhooks.dispatch';

/** Events recorded in one transaction at most (each statement's parameters grow with them). */
const EVENTS_PER_TRANSACTION = 64;

/**
 * Turns integration events into durable deliveries. The processed-message mark, the stored
 * event and its deliveries commit together, so a redelivered event creates nothing twice and a
 * crash before the commit loses nothing (the bus delivers it again). An event no endpoint wanted
 * is still recorded, and counted and logged as such.
 *
 * Events arriving while a transaction is on its way are recorded together in the next one
 * (`StatementBatcher`): one BEGIN, one marking statement, one recording statement and one COMMIT
 * for all of them, each still recorded once. The forwarder publishes many streams' events at
 * once, and most of an event's cost here was its transaction's round trips. When such a
 * transaction fails, its events are recorded again one by one (`processOnce`); one whose batch
 * committed after all (the answer lost) finds its mark and is not counted again.
 */
@Injectable()
export class WebhookEventsConsumer {
  private readonly logger = new Logger('WebhookEvents');
  /** Per event: how many endpoints wanted it, or undefined when it was recorded before. */
  private readonly intake = new StatementBatcher<IntegrationEvent, number | undefined>({
    alone: (event) => this.recordAlone(event),
    together: (events) => this.recordTogether(events),
    maxBatch: EVENTS_PER_TRANSACTION,
  });

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
    const matched = await this.intake.submit(event);
    if (matched === undefined) return;
    this.metrics.eventRecorded(event.type, matched);
    if (matched === 0) {
      const what = `${event.id} (${event.type}) of ${event.merchant_id} ${mode}`;
      this.logger.debug(`${what} recorded with no endpoint wanting it`);
      return;
    }
    this.worker.wake();
  }

  private async recordAlone(event: IntegrationEvent): Promise<number | undefined> {
    let matched: number | undefined;
    await processOnce(this.pool, WEBHOOKS_CONSUMER, event.id, async (tx) => {
      matched = await recordEvent(tx, event, this.clock.now());
    });
    return matched;
  }

  private async recordTogether(events: IntegrationEvent[]): Promise<Array<number | undefined>> {
    const matched: Array<number | undefined> = events.map(() => undefined);
    const ids = events.map((event) => event.id);
    await processEachOnce(this.pool, WEBHOOKS_CONSUMER, ids, async (tx, fresh) => {
      const counts = await recordEvents(
        tx,
        fresh.map((index) => events[index]!),
        this.clock.now(),
      );
      fresh.forEach((index, n) => (matched[index] = counts[n]));
    });
    return matched;
  }
}
