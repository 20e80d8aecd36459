import { Inject, Injectable, Logger } from '@nestjs/common';
import { subscriptionStream } from '@xaalis/billing-domain';
import { BUS_CLIENT, EVENT_STORE } from '@xaalis/config';
import { request, WEBHOOKS_EVENT_GET, type BusRequester } from '@xaalis/contracts';
import type { EventStore } from '@xaalis/event-store';
import { DomainError, modeOf } from '@xaalis/kernel';
import type { Outcome } from './billing.commands';
import { BillingViews } from './billing-views';

/** How long a test advance waits for its events to be recorded before answering anyway. */
const WAIT_MS = 10_000;
const POLL_MS = 20;

/**
 * Issue 20: a test advance answers once the webhook events it caused are in `GET /v1/events`
 * (a test clock that says "ready" while its events are on their way is a known pain). The
 * forwarder publishes them as it does every event; this only waits until the webhooks app has
 * recorded each, asking it by event id (the ids are derived from the recorded events, so they
 * are the ones the forwarder publishes).
 */
@Injectable()
export class PublishedEvents {
  private readonly logger = new Logger('BillingPublishedEvents');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(BUS_CLIENT) private readonly bus: BusRequester,
    private readonly views: BillingViews,
  ) {}

  async waitFor(outcome: Outcome): Promise<void> {
    if (outcome.events.length === 0) return;
    const first = outcome.revision - BigInt(outcome.events.length - 1);
    const { events } = await this.store.readStream(
      subscriptionStream(outcome.state.subscriptionId),
      { fromRevision: first, maxCount: outcome.events.length },
    );
    const published = (await Promise.all(events.map(this.views.integrationEvents))).flat();
    const deadline = Date.now() + WAIT_MS;
    for (const event of published) {
      const scope = { merchant_id: event.merchant_id, mode: modeOf(event.livemode) };
      while (!(await this.recorded(scope, event.id))) {
        if (Date.now() > deadline) {
          this.logger.warn(`event ${event.id} not yet recorded after ${WAIT_MS} ms`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }
  }

  private async recorded(
    scope: { merchant_id: string; mode: 'test' | 'live' },
    eventId: string,
  ): Promise<boolean> {
    try {
      await request(this.bus, WEBHOOKS_EVENT_GET, { ...scope, event_id: eventId });
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found') return false;
      throw error;
    }
  }
}
