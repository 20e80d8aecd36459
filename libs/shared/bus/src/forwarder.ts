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

/**
 * Streams of one batch published at once. Each event is consumed in a transaction of its own per
 * group (the ledger's credit, the webhooks' record), so this bounds how many commits are on their
 * way together. Measured (issue 16): after a kill -9 under load (`npm run bench:restart`), 16
 * caught up in 7–9 s and 64 in about 1 s, but with 64 the forwarding overlaps the measured
 * rounds of `npm run bench` and the keyed payment create fell from 0.54–0.56× to 0.47–0.48×
 * (target 0.5×). Faster catch-up wants consumers that commit a batch at once, not more of them.
 */
const STREAMS_AT_ONCE = 16;

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
 * if and only if it was recorded. A batch's integration events are published (`emit`, awaited
 * until acknowledged) before its position is checkpointed: a crash or a failed publish means
 * publishing again from the checkpoint (at least once), never losing one.
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

  /**
   * One batch: its streams side by side (at most `STREAMS_AT_ONCE`), each stream's events in
   * order, so a payment's refund never overtakes its success while one slow consumer does not
   * hold every other payment back. The checkpoint moves once, after the whole batch is
   * acknowledged; a failure offers the batch again, and what was already published goes out a
   * second time with the same ids (consumers deduplicate on them).
   */
  private async forward(events: RecordedEvent[]): Promise<void> {
    const { options } = this;
    // The subscription offers a failed batch again from its start.
    const fresh = events.filter((event) => this.saved === null || event.position > this.saved);
    if (fresh.length === 0) return;
    const streams = new Map<string, RecordedEvent[]>();
    for (const event of fresh) {
      const stream = streams.get(event.streamName);
      if (stream === undefined) streams.set(event.streamName, [event]);
      else stream.push(event);
    }
    const queue = [...streams.values()];
    const publishStreams = async () => {
      for (let stream = queue.shift(); stream !== undefined; stream = queue.shift()) {
        for (const recorded of stream) await this.publish(recorded);
      }
    };
    const outcomes = await Promise.allSettled(
      Array.from({ length: Math.min(STREAMS_AT_ONCE, queue.length) }, publishStreams),
    );
    const failure = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failure !== undefined) throw (failure as PromiseRejectedResult).reason;
    const last = fresh.at(-1)!.position;
    await options.checkpoints.save(options.name, last);
    this.saved = last;
  }

  private async publish(recorded: RecordedEvent): Promise<void> {
    for (const event of await this.options.toIntegrationEvents(recorded)) {
      // A mapping that produces an invalid event stops the forwarder (logged, retried), so the
      // bug is seen and nothing is skipped.
      validateMessage(IntegrationEvent, event);
      await lastValueFrom(this.options.client.emit(topicOf(event.type), event), {
        defaultValue: undefined,
      });
    }
  }
}
