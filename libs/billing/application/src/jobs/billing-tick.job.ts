import { Inject, Injectable } from '@nestjs/common';
import { nextTickAt } from '@xaalis/billing-domain';
import { CLOCK } from '@xaalis/config';
import {
  jobDone,
  retryLater,
  runAgainAt,
  type Job,
  type JobHandler,
  type JobResult,
} from '@xaalis/jobs';
import type { Clock } from '@xaalis/kernel';
import { BillingCommands } from '../billing.commands';
import { BILLING_JOB_KINDS } from '../billing-jobs.kinds';
import { BillingQueries } from '../billing.queries';

/**
 * The billing clock of one subscription (CONTRACT 7): applies each billing instant that has come
 * (one `Tick` each, so a subscription that slept through several catches up in order), then is
 * due again at the next one. The decider applies an instant once, so a repeated run changes
 * nothing; the projection also reschedules the job with every fact it records.
 */
@Injectable()
export class BillingTickJob implements JobHandler {
  readonly kind = BILLING_JOB_KINDS.tick;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly commands: BillingCommands,
    private readonly queries: BillingQueries,
  ) {}

  async run(job: Job): Promise<JobResult> {
    // The Tick below is decided on the stream as it is: a stale cache only costs a retry.
    let subscription = await this.queries.findSubscription(job.reference, { cached: true });
    if (!subscription) return jobDone;
    for (;;) {
      const now = this.clock.now();
      const next = nextTickAt(subscription);
      if (next === null) return jobDone;
      if (next > now) return runAgainAt(next);
      const outcome = await this.commands.subscription(subscription.subscriptionId, {
        type: 'Tick',
        data: { now },
      });
      // Due, yet nothing to apply: the stream moved under this run; look again after a while.
      if (outcome.events.length === 0) return retryLater('nothing to apply at a due instant');
      subscription = outcome.state;
    }
  }
}
