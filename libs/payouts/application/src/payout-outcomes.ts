import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@xaalis/config';
import { assertNever, type Clock } from '@xaalis/kernel';
import { Ledger } from '@xaalis/ledger';
import { LEDGER_ACCOUNTS, payoutHold } from '@xaalis/ledger-domain';
import type { Payout, PayoutCommand } from '@xaalis/payouts-domain';
import { PayoutsCommands } from './payouts.commands';

/** How a payout ended, whoever says so: the provider, the sandbox or a test helper. */
export type PayoutEnding =
  { status: 'succeeded' } | { status: 'failed'; reason: string } | { status: 'reversed' };

/**
 * Records a payout's end on its stream, then moves its money. The stream decides (a payout that
 * failed cannot succeed); the ledger follows, keyed by the hold, so a repeat moves nothing. A
 * crash between the two leaves the `payout.settle` job the projection wrote with the event, which
 * moves the money then: the same `settle`.
 */
@Injectable()
export class PayoutOutcomes {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly commands: PayoutsCommands,
    private readonly ledger: Ledger,
  ) {}

  async end(payoutId: string, ending: PayoutEnding): Promise<Payout> {
    const { state } = await this.commands.payout(payoutId, this.command(ending));
    await this.settle(state);
    return state;
  }

  /** Whether a payout's money has moved as its end says: then `settle` would change nothing. */
  async settled(payout: Payout): Promise<boolean> {
    if (payout.status !== 'succeeded') return false;
    const hold = await this.ledger.holdStatus(payoutHold(payout.payoutId));
    return hold?.status === 'settled';
  }

  /**
   * `succeeded`: the hold goes to `payouts_sent` and the fee to the platform. `failed`: amount
   * and fee are back in `available`, and the payout no longer counts against its wallet's day
   * (one made without a wallet has no day to free); after a reversal, the settlement is undone.
   * Unfinished payouts move nothing.
   */
  async settle(payout: Payout): Promise<void> {
    const ref = payoutHold(payout.payoutId);
    switch (payout.status) {
      case 'pending':
      case 'processing':
        return;
      case 'succeeded':
        await this.ledger.settleHold({ ref, to: LEDGER_ACCOUNTS.payoutsSent });
        return;
      case 'failed':
        if (payout.reversed) await this.ledger.reverseHold({ ref });
        else await this.ledger.releaseHold({ ref });
        if (payout.agentWalletId !== null) {
          await this.commands.wallet(payout.agentWalletId, {
            type: 'ReleasePayout',
            data: { payoutId: payout.payoutId, now: this.clock.now() },
          });
        }
        return;
      default:
        return assertNever(payout.status);
    }
  }

  private command(ending: PayoutEnding): PayoutCommand {
    const now = this.clock.now();
    switch (ending.status) {
      case 'succeeded':
        return { type: 'SucceedPayout', data: { now } };
      case 'failed':
        return { type: 'FailPayout', data: { reason: ending.reason, now } };
      case 'reversed':
        return { type: 'ReversePayout', data: { now } };
      default:
        return assertNever(ending);
    }
  }
}
