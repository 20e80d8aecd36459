import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, CONFIG, type XaalisConfig } from '@xaalis/config';
import type { CreateAgentPayoutRequest, PayoutReply } from '@xaalis/contracts';
import { StreamTurns } from '@xaalis/event-store';
import { failpoint } from '@xaalis/failpoints';
import { DomainError, type Clock } from '@xaalis/kernel';
import {
  decideAgentWallet,
  openPayoutId,
  payoutForAction,
  toPayoutObject,
  type AgentWallet,
  type AgentWalletEvent,
  type Payout,
  type PayoutAccepted,
  type PayoutFeeSchedule,
  type RequestPayout,
} from '@xaalis/payouts-domain';
import { PayoutHolds } from './payout-holds';
import { PayoutsCommands } from './payouts.commands';
import { PayoutsQueries } from './payouts.queries';

/**
 * `POST /v1/agent/payouts` (spec 4.3, issue 19 item 3). The policy is judged and the day's cap
 * taken in one decision on the wallet's stream, appended with its expected revision, so no two
 * payouts of one wallet pass a cap together; the funds are held in the ledger first, whose row
 * lock and CHECK keep `available` from going below zero whatever runs at once. The order of the
 * steps, and what a crash between two of them leaves, is `PayoutHolds`'.
 */
@Injectable()
export class AgentPayoutsService {
  private readonly fees: PayoutFeeSchedule;
  /**
   * Requests for one action_id in this process take turns, so a retry sent while the first is
   * still running finds its payout instead of holding funds a second time (and being refused
   * `insufficient_funds` when the first took the last of them).
   */
  private readonly actions = new StreamTurns();

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) config: XaalisConfig,
    private readonly commands: PayoutsCommands,
    private readonly queries: PayoutsQueries,
    private readonly holds: PayoutHolds,
  ) {
    this.fees = config.payoutFeeBps;
  }

  create(request: CreateAgentPayoutRequest): Promise<PayoutReply> {
    return this.actions.run(`${request.agent_wallet_id} ${request.action_id}`, () =>
      this.createInTurn(request),
    );
  }

  private async createInTurn(request: CreateAgentPayoutRequest): Promise<PayoutReply> {
    // Judged first, so a refusal or a retried action_id holds nothing: on the wallet as this
    // process last saw it, and if that refuses, as the store has it now.
    const scope = [request.merchant_id, request.mode, request.agent_wallet_id] as const;
    let wallet = await this.queries.wallet(...scope, { cached: true });
    let command = this.requestPayout(request, wallet);
    let decided: AgentWalletEvent[];
    try {
      decided = decideAgentWallet(command, wallet);
    } catch {
      wallet = await this.queries.wallet(...scope);
      command = this.requestPayout(request, wallet);
      decided = decideAgentWallet(command, wallet);
    }
    const accepted = decided[0] as PayoutAccepted | undefined;
    if (accepted === undefined) return this.payoutOfAction(wallet, request.action_id);

    await this.holds.hold({
      payoutId: accepted.data.payoutId,
      walletId: wallet.walletId,
      merchantId: wallet.merchantId,
      mode: wallet.mode,
      amount: accepted.data.amount,
      fee: accepted.data.fee,
    });
    failpoint('payouts.accept.after_hold');

    const outcome = await this.accept(wallet, command);
    if (!outcome.changed) {
      // Another request with this action_id was accepted meanwhile: this one's hold goes back.
      await this.holds.abandon(wallet.walletId, request.payout_id);
      return this.payoutOfAction(outcome.state, request.action_id);
    }
    failpoint('payouts.accept.after_wallet_append');
    return toPayoutObject(
      outcome.payout ?? (await this.ensureCreated(outcome.state, accepted.data.payoutId)),
    );
  }

  /**
   * The decision that counts, its payout's stream created with it (`requestPayout`). Refused now
   * though judged acceptable a moment ago (a payout or a policy change came first): the payout id
   * is closed and its money given back.
   */
  private async accept(wallet: AgentWallet, command: RequestPayout) {
    try {
      return await this.commands.requestPayout(wallet.walletId, command, {
        merchantId: wallet.merchantId,
        mode: wallet.mode,
      });
    } catch (error) {
      if (error instanceof DomainError && error.code !== 'unavailable') {
        await this.holds.abandon(wallet.walletId, command.data.payoutId).catch(() => undefined);
      }
      throw error;
    }
  }

  /**
   * Under the id reserved at the idempotency claim, or the next one when a run of this request
   * that died had its funds given back under it (`openPayoutId`): a retry with the same key is
   * then made, not refused.
   */
  private requestPayout(request: CreateAgentPayoutRequest, wallet: AgentWallet): RequestPayout {
    return {
      type: 'RequestPayout',
      data: {
        payoutId: openPayoutId(wallet, request.payout_id),
        agentKeyId: request.agent_key_id,
        actionId: request.action_id,
        amount: request.amount,
        currency: request.currency ?? null,
        recipient: { phone: request.recipient.phone, name: request.recipient.name ?? null },
        fees: this.fees,
        // The ledger's hold decides the funds; the wallet decides the rest.
        available: null,
        now: this.clock.now(),
      },
    };
  }

  /** The payout an action_id made, its stream created first if a crash left it to be. */
  private async payoutOfAction(wallet: AgentWallet, actionId: string): Promise<PayoutReply> {
    const payoutId = payoutForAction(wallet, actionId);
    if (payoutId === null) throw new Error(`No payout for action ${actionId}`);
    return toPayoutObject(await this.ensureCreated(wallet, payoutId));
  }

  /**
   * The payout of an acceptance, its stream created from the wallet's `PayoutAccepted` if the
   * store could not write both together and a crash came between the two appends (EventStoreDB,
   * see AppendOptions.creating): on the retry of an action_id, and in `payout.claim_hold`.
   */
  async ensureCreated(wallet: AgentWallet, payoutId: string): Promise<Payout> {
    const payout = await this.queries.findPayout(payoutId);
    if (payout) return payout;
    const acceptance = await this.queries.acceptance(wallet.walletId, payoutId);
    return this.createPayout(wallet, acceptance);
  }

  /** A no-op when the payout's stream exists: its id is the acceptance's. */
  private async createPayout(
    wallet: AgentWallet,
    accepted: PayoutAccepted['data'],
  ): Promise<Payout> {
    const { state } = await this.commands.payout(
      accepted.payoutId,
      {
        type: 'CreatePayout',
        data: { accepted, merchantId: wallet.merchantId, mode: wallet.mode, now: this.clock.now() },
      },
      { newStream: true },
    );
    return state;
  }
}
