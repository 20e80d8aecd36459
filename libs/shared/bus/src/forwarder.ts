import { Logger } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { IntegrationEvent, topicOf, validateMessage } from '@xaalis/contracts';
import {
  subscribe,
  type EventStore,
  type RecordedEvent,
  type Subscription,
  type SubscriptionLogger,
} from '@xaalis/event-store';
import type { CheckpointStore } from './checkpoint-store';

export interface EventForwarderOptions {
  store: EventStore;
  /** Names the checkpoint; one running forwarder per name (two would only publish twice). */
  name: string;
  /** The context's streams, e.g. `['payment-', 'refund-']`. */
  streamPrefixes: string[];
  /**
   * The context's mapping; give ids with `integrationEventId` so a republish keeps them. It may
   * read (e.g. the stream up to the event, to show the object as it was at that moment).
   */
  toIntegrationEvents: (event: RecordedEvent) => IntegrationEvent[] | Promise<IntegrationEvent[]>;
  client: Pick<ClientProxy, 'emit'>;
  checkpoints: CheckpointStore;
  batchSize?: number;
  /** Longest sleep in `waitForAppend` when caught up. Default 1000 ms. */
  idleWaitMs?: number;
  /** Backoff after a failed publish: doubles from this (default 100 ms) up to 30 s. */
  retryDelayMs?: number;
  logger?: SubscriptionLogger;
}

/**
 * Brings a context's integration events from its event store to the bus. The event store is
 * the only write; the bus follows it through a catch-up subscription, so an event is published
 * if and only if it was recorded. Each recorded event's integration events are published
 * (`emit`, awaited until acknowledged) before its position is checkpointed: a crash or a failed
 * publish means publishing again from the checkpoint (at least once), never losing one.
 */
export class EventForwarder {
  private subscription: Subscription | undefined;
  /** The last position saved: events at or before it are not published again on a retry. */
  private saved: string | null = null;

  constructor(private readonly options: EventForwarderOptions) {}

  /** Loads the checkpoint and starts following the store. */
  async start(): Promise<void> {
    if (this.subscription !== undefined) return;
    const { options } = this;
    this.saved = await options.checkpoints.load(options.name);
    this.subscription = subscribe(options.store, {
      name: `forwarder ${options.name}`,
      after: this.saved,
      streamPrefixes: options.streamPrefixes,
      batchSize: options.batchSize,
      idleWaitMs: options.idleWaitMs ?? 1000,
      retry: { initialDelayMs: options.retryDelayMs ?? 100 },
      logger: options.logger ?? new Logger(`EventForwarder ${options.name}`),
      onBatch: (events) => this.forward(events),
    });
  }

  /** Stops after the event being published, if any; its checkpoint is saved first. */
  async stop(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = undefined;
    await subscription?.stop();
  }

  /** The checkpoint last saved, null before the first. */
  get position(): string | null {
    return this.saved;
  }

  private async forward(events: RecordedEvent[]): Promise<void> {
    const { options } = this;
    /** The last event passed over without publishing, not checkpointed yet. */
    let skipped: string | null = null;
    for (const recorded of events) {
      // The subscription offers a failed batch again from its start.
      if (this.saved !== null && recorded.position <= this.saved) continue;
      const integrationEvents = await options.toIntegrationEvents(recorded);
      if (integrationEvents.length === 0) {
        // Most events publish nothing (a payment created, a key issued): checkpointing each
        // would cost a write per append; once at the end of the batch is enough.
        skipped = recorded.position;
        continue;
      }
      for (const event of integrationEvents) {
        // A mapping that produces an invalid event stops the forwarder (logged, retried), so
        // the bug is seen and nothing is skipped.
        validateMessage(IntegrationEvent, event);
        await lastValueFrom(options.client.emit(topicOf(event.type), event), {
          defaultValue: undefined,
        });
      }
      await options.checkpoints.save(options.name, recorded.position);
      this.saved = recorded.position;
      skipped = null;
    }
    if (skipped !== null) {
      await options.checkpoints.save(options.name, skipped);
      this.saved = skipped;
    }
  }
}
