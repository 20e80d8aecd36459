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
import { PAYOUT_STREAM_PREFIX } from '@xaalis/payouts-domain';
import { payoutIntegrationEvents } from './payout-integration-events';
import { PayoutsCommands } from './payouts.commands';

/**
 * Publishes `payout.succeeded` and `payout.failed` from the payout streams, resuming from its
 * checkpoint (at least once, same event id), as the payments forwarder does.
 */
@Injectable()
export class PayoutsForwarder implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly forwarder: EventForwarder;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(PG_POOL) pool: Pool,
    @Inject(BUS_CLIENT) client: BusClient,
    commands: PayoutsCommands,
  ) {
    this.forwarder = new EventForwarder({
      store,
      name: 'payouts',
      streamPrefixes: [PAYOUT_STREAM_PREFIX],
      toIntegrationEvents: payoutIntegrationEvents(store, commands.payouts),
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
