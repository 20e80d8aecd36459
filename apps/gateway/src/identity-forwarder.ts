import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Pool } from 'pg';
import { EventForwarder, PostgresCheckpointStore, type BusClient } from '@xaalis/bus';
import { BUS_CLIENT, EVENT_STORE, PG_POOL } from '@xaalis/config';
import type { EventStore } from '@xaalis/event-store';
import { IDENTITY_STREAM_PREFIXES, identityIntegrationEvents } from '@xaalis/identity';

/**
 * Publishes the identity context's integration events (`account.updated`) from the merchant
 * streams to the bus, resuming from its checkpoint: the append is the only write, the bus learns
 * of it from here.
 */
@Injectable()
export class IdentityForwarder implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly forwarder: EventForwarder;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(PG_POOL) pool: Pool,
    @Inject(BUS_CLIENT) client: BusClient,
  ) {
    this.forwarder = new EventForwarder({
      store,
      name: 'identity',
      streamPrefixes: IDENTITY_STREAM_PREFIXES,
      toIntegrationEvents: identityIntegrationEvents,
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
