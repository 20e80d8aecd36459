import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Pool } from 'pg';
import { SUBSCRIPTION_STREAM_PREFIX } from '@xaalis/billing-domain';
import { EventForwarder, PostgresCheckpointStore, type BusClient } from '@xaalis/bus';
import { BUS_CLIENT, EVENT_STORE, PG_POOL } from '@xaalis/config';
import type { EventStore } from '@xaalis/event-store';
import { BillingViews } from './billing-views';

/**
 * Publishes the invoice and subscription events (spec 6) from the subscription streams, resuming
 * from its checkpoint (at least once, same event id), as the payments forwarder does.
 */
@Injectable()
export class BillingForwarder implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly forwarder: EventForwarder;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(PG_POOL) pool: Pool,
    @Inject(BUS_CLIENT) client: BusClient,
    views: BillingViews,
  ) {
    this.forwarder = new EventForwarder({
      store,
      name: 'billing',
      streamPrefixes: [SUBSCRIPTION_STREAM_PREFIX],
      toIntegrationEvents: views.integrationEvents,
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
