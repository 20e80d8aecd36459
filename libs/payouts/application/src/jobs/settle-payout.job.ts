import { Injectable } from '@nestjs/common';
import { jobDone, type Job, type JobHandler, type JobResult } from '@xaalis/jobs';
import { PayoutOutcomes } from '../payout-outcomes';
import { PAYOUT_JOB_KINDS } from '../payout-jobs.kinds';
import { PayoutsQueries } from '../payouts.queries';

/** After a payout ended: its money moves (a no-op when whoever ended it moved it already). */
@Injectable()
export class SettlePayoutJob implements JobHandler {
  readonly kind = PAYOUT_JOB_KINDS.settle;

  constructor(
    private readonly queries: PayoutsQueries,
    private readonly outcomes: PayoutOutcomes,
  ) {}

  async run(job: Job): Promise<JobResult> {
    const payout = await this.queries.findPayout(job.reference);
    // Whoever ended the payout moved its money at once, as a rule: this is for a crash between.
    if (payout && !(await this.outcomes.settled(payout))) await this.outcomes.settle(payout);
    return jobDone;
  }
}
