import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE } from '@xaalis/config';
import {
  exists,
  subscriptionDecider,
  subscriptionStream,
  type Subscription,
  type SubscriptionCommand,
  type SubscriptionEvent,
  type SubscriptionState,
} from '@xaalis/billing-domain';
import {
  FoldCache,
  handleCommand,
  type EventStore,
  type HandleCommandOptions,
} from '@xaalis/event-store';
import { notFound } from '@xaalis/kernel';

export interface Outcome {
  /** The subscription, its invoices included, after the command. */
  state: Subscription;
  /** What this command appended (none: a repeat, or nothing to do). */
  events: SubscriptionEvent[];
  /** The position of the append, or of the stream's last event when nothing was appended. */
  position: string;
  /** The stream's last revision: `events` are the last `events.length` of it. */
  revision: bigint;
}

/**
 * Runs a command on a subscription's stream through `handleCommand` (read, fold, decide, append
 * with the expected revision, retry on conflict), and remembers this process's latest append so
 * that lists read their own writes.
 */
@Injectable()
export class BillingCommands {
  lastPosition: string | null = null;

  /** A subscription's commands mostly come from this process one after the other. */
  readonly subscriptions = new FoldCache<SubscriptionState>();

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async subscription(
    subscriptionId: string,
    command: SubscriptionCommand,
    options?: HandleCommandOptions,
  ): Promise<Outcome> {
    const result = await handleCommand(
      this.store,
      subscriptionStream(subscriptionId),
      subscriptionDecider,
      command,
      { ...options, cache: this.subscriptions },
    );
    if (!exists(result.state)) throw notFound('subscription');
    const events = result.events as SubscriptionEvent[];
    if (events.length > 0 && (this.lastPosition === null || result.position > this.lastPosition)) {
      this.lastPosition = result.position;
    }
    return {
      state: result.state,
      events,
      position: result.position,
      revision: result.nextExpectedRevision,
    };
  }
}
