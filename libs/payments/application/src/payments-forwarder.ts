import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Pool } from 'pg';
import { EventForwarder, PostgresCheckpointStore, type BusClient } from '@xaalis/bus';
import { BUS_CLIENT, EVENT_STORE, PG_POOL } from '@xaalis/config';
import type { EventStore, RecordedEvent } from '@xaalis/event-store';
import { failpoint } from '@xaalis/failpoints';
import { PAYMENT_STREAM_PREFIX } from '@xaalis/payments-domain';
import { paymentIntegrationEvents } from './payment-integration-events';
import { PaymentLinker } from './payment-links';

/**
 * Publishes payment events to the bus from the payment streams, resuming from its checkpoint:
 * the append is the only write, and an event recorded before a crash is published after the
 * restart (at least once, same event id). A merchant who reads the payment on receipt reads its
 * stream, so sees at least what the event shows.
 */
@Injectable()
export class PaymentsForwarder implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly forwarder: EventForwarder;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(PG_POOL) pool: Pool,
    @Inject(BUS_CLIENT) client: BusClient,
    linker: PaymentLinker,
  ) {
    const toEvents = paymentIntegrationEvents(store, (payment) => linker.links(payment));
    this.forwarder = new EventForwarder({
      store,
      name: 'payments',
      streamPrefixes: [PAYMENT_STREAM_PREFIX],
      toIntegrationEvents: async (recorded: RecordedEvent) => {
        const events = await toEvents(recorded);
        if (events.length > 0) failpoint('payments.forwarder.before_publish');
        return events;
      },
      client,
      checkpoints: new PostgresCheckpointStore(pool),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.forwarder.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.forwarder.stop();
  }
}
