import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE } from '@xaalis/config';
import { handleCommand, type EventStore, type HandleCommandOptions } from '@xaalis/event-store';
import { notFound } from '@xaalis/kernel';
import {
  agentWalletDecider,
  agentWalletExists,
  agentWalletStream,
  payoutDecider,
  payoutExists,
  payoutStream,
  type AgentWallet,
  type AgentWalletCommand,
  type AgentWalletEvent,
  type Payout,
  type PayoutCommand,
  type PayoutEvent,
} from '@xaalis/payouts-domain';

export interface Outcome<T, Event> {
  /** The wallet or payout after the command. */
  state: T;
  /** What this command appended (none: a repeat, or nothing to do). */
  events: Event[];
  changed: boolean;
}

/**
 * Runs a command on a wallet's or a payout's stream through `handleCommand` (read, fold, decide,
 * append with the expected revision, retry on conflict), and remembers this process's latest
 * append so that lists read their own writes.
 */
@Injectable()
export class PayoutsCommands {
  lastPosition: string | null = null;

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async wallet(
    walletId: string,
    command: AgentWalletCommand,
    options?: HandleCommandOptions,
  ): Promise<Outcome<AgentWallet, AgentWalletEvent>> {
    const result = await handleCommand(
      this.store,
      agentWalletStream(walletId),
      agentWalletDecider,
      command,
      options,
    );
    if (!agentWalletExists(result.state)) throw notFound('agent wallet');
    return this.outcome(result.state, result.events as AgentWalletEvent[], result.position);
  }

  async payout(
    payoutId: string,
    command: PayoutCommand,
    options?: HandleCommandOptions,
  ): Promise<Outcome<Payout, PayoutEvent>> {
    const result = await handleCommand(
      this.store,
      payoutStream(payoutId),
      payoutDecider,
      command,
      options,
    );
    if (!payoutExists(result.state)) throw notFound('payout');
    return this.outcome(result.state, result.events as PayoutEvent[], result.position);
  }

  private outcome<T, Event>(state: T, events: Event[], position: string): Outcome<T, Event> {
    const changed = events.length > 0;
    if (changed && (this.lastPosition === null || position > this.lastPosition)) {
      this.lastPosition = position;
    }
    return { state, events, changed };
  }
}
