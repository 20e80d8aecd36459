import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE } from '@xaalis/config';
import {
  FoldCache,
  handleCommand,
  type EventStore,
  type HandleCommandOptions,
} from '@xaalis/event-store';
import { fold, notFound, type Mode } from '@xaalis/kernel';
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
  type AgentWalletState,
  type Payout,
  type PayoutAccepted,
  type PayoutCommand,
  type PayoutEvent,
  type PayoutState,
  type RequestPayout,
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

  /**
   * A busy wallet's stream grows by a payout at a time: commands and reads fold only what came
   * after the state this process last saw of it.
   */
  readonly wallets = new FoldCache<AgentWalletState>();

  /**
   * A payout's few commands (created, processing, ended) mostly come from this process one after
   * the other: each is decided on the state the one before left, and only appended.
   */
  readonly payouts = new FoldCache<PayoutState>();

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
      { ...options, cache: this.wallets },
    );
    if (!agentWalletExists(result.state)) throw notFound('agent wallet');
    return this.outcome(result.state, result.events as AgentWalletEvent[], result.position);
  }

  /**
   * `RequestPayout` on a wallet, whose acceptance creates the payout's stream in the same append
   * (`creating`: one transaction where the store has one, see AppendOptions): the payout as
   * `CreatePayout` makes it, then cached for the commands that follow it in this process.
   */
  async requestPayout(
    walletId: string,
    command: RequestPayout,
    owner: { merchantId: string; mode: Mode },
  ): Promise<Outcome<AgentWallet, AgentWalletEvent> & { payout: Payout | undefined }> {
    const result = await handleCommand(
      this.store,
      agentWalletStream(walletId),
      agentWalletDecider,
      command,
      {
        cache: this.wallets,
        creating: (events) =>
          events
            .filter((event): event is PayoutAccepted => event.type === 'PayoutAccepted')
            .map((accepted) => ({
              streamName: payoutStream(accepted.data.payoutId),
              events: payoutDecider.decide(
                {
                  type: 'CreatePayout',
                  data: { accepted: accepted.data, ...owner, now: command.data.now },
                },
                payoutDecider.initialState(),
              ),
            })),
      },
    );
    if (!agentWalletExists(result.state)) throw notFound('agent wallet');
    let payout: Payout | undefined;
    for (const { streamName, events } of result.created) {
      const state = fold(
        payoutDecider.evolve,
        payoutDecider.initialState(),
        events as PayoutEvent[],
      );
      this.payouts.set(streamName, {
        state,
        revision: BigInt(events.length - 1),
        position: result.position,
      });
      if (payoutExists(state)) payout = state;
    }
    const outcome = this.outcome(
      result.state,
      result.events as AgentWalletEvent[],
      result.position,
    );
    return { ...outcome, payout };
  }

  async payout(
    payoutId: string,
    command: PayoutCommand,
    options?: HandleCommandOptions,
  ): Promise<Outcome<Payout, PayoutEvent>> {
    const result = await handleCommand(this.store, payoutStream(payoutId), payoutDecider, command, {
      ...options,
      cache: this.payouts,
    });
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
