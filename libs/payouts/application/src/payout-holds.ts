import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, CONFIG, type XaalisConfig } from '@xaalis/config';
import type { Clock, Mode } from '@xaalis/kernel';
import { Ledger } from '@xaalis/ledger';
import { payoutHold } from '@xaalis/ledger-domain';
import { payoutJobs } from './payout-jobs.kinds';
import { PayoutsCommands } from './payouts.commands';

export interface PayoutFunds {
  payoutId: string;
  walletId: string;
  merchantId: string;
  mode: Mode;
  amount: number;
  fee: number;
}

/**
 * A payout's money before its wallet accepts it. The wallet's stream and the ledger cannot share
 * a transaction (in EventStoreDB they are two stores), so the steps go in an order where a crash
 * between any two neither loses nor doubles money:
 *
 * 1. `hold`: amount + fee leave `available`, keyed by the payout id (a retry holds nothing more),
 *    with a `payout.claim_hold` job in the same transaction;
 * 2. the wallet accepts the payout (its stream, with the expected revision), the payout's own
 *    stream created in the same append;
 * 3. the job, if the payout was never accepted, closes the payout id on the wallet's stream
 *    (`abandon`) and only then gives the money back, so a late acceptance is refused instead of
 *    spending money no longer held.
 */
@Injectable()
export class PayoutHolds {
  constructor(
    @Inject(CONFIG) private readonly config: XaalisConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly ledger: Ledger,
    private readonly commands: PayoutsCommands,
  ) {}

  /** `insufficient_funds` when amount + fee is more than `available`; then nothing changed. */
  async hold(funds: PayoutFunds): Promise<void> {
    // A request still running after its idempotency lease is treated as dead by its retries too.
    const claimBy = new Date(this.clock.now().getTime() + this.config.idempotencyLeaseMs);
    await this.ledger.hold(
      {
        ref: payoutHold(funds.payoutId),
        merchantId: funds.merchantId,
        mode: funds.mode,
        amount: funds.amount,
        fee: funds.fee,
      },
      undefined,
      [payoutJobs.claimHold(funds.walletId, funds.payoutId, claimBy)],
    );
  }

  /**
   * Gives the money of a payout id the wallet did not accept back, once the wallet can no longer
   * accept it. False when the wallet had accepted it after all: then the money stays held.
   */
  async abandon(walletId: string, payoutId: string): Promise<boolean> {
    const { state: wallet } = await this.commands.wallet(walletId, {
      type: 'AbandonPayout',
      data: { payoutId, now: this.clock.now() },
    });
    if (wallet.payouts.has(payoutId)) return false;
    await this.ledger.releaseHold({ ref: payoutHold(payoutId) });
    return true;
  }
}
