import { Injectable } from '@nestjs/common';
import { jobDone, type Job, type JobHandler, type JobResult } from '@xaalis/jobs';
import { AgentPayoutsService } from '../agent-payouts.service';
import { PayoutHolds } from '../payout-holds';
import { parseClaimHoldReference, PAYOUT_JOB_KINDS } from '../payout-jobs.kinds';
import { PayoutsQueries } from '../payouts.queries';

/**
 * Funds held for a payout whose request may have died before its wallet accepted it (the job is
 * written with the hold, and deleted when the payout's stream is created). Accepted after all:
 * its stream is created. Not accepted: the payout id is closed and the money given back.
 */
@Injectable()
export class ClaimHoldJob implements JobHandler {
  readonly kind = PAYOUT_JOB_KINDS.claimHold;

  constructor(
    private readonly queries: PayoutsQueries,
    private readonly holds: PayoutHolds,
    private readonly payouts: AgentPayoutsService,
  ) {}

  async run(job: Job): Promise<JobResult> {
    const ref = parseClaimHoldReference(job.reference);
    if (!ref) return jobDone;
    const wallet = await this.queries.findWallet(ref.walletId);
    if (!wallet) return jobDone;
    if (
      wallet.payouts.has(ref.payoutId) ||
      !(await this.holds.abandon(wallet.walletId, ref.payoutId))
    ) {
      await this.payouts.ensureCreated(wallet, ref.payoutId);
    }
    return jobDone;
  }
}
