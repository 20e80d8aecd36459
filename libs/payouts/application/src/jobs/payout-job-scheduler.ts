import { jobSchedulerProvider } from '@xaalis/jobs';
import { PAYOUT_JOB_SCHEDULER } from '../payouts.tokens';
import { ClaimHoldJob } from './claim-hold.job';
import { SendPayoutJob } from './send-payout.job';
import { SettlePayoutJob } from './settle-payout.job';

/**
 * Sending and following payouts, moving their money once they end, and giving back funds held
 * for payouts never accepted. Every job ends in a decider command (a no-op when applied) or a
 * ledger posting keyed by the hold, so running one twice changes nothing.
 */
export const payoutJobProviders = [
  ClaimHoldJob,
  SendPayoutJob,
  SettlePayoutJob,
  jobSchedulerProvider({
    provide: PAYOUT_JOB_SCHEDULER,
    name: 'Payout',
    handlers: [ClaimHoldJob, SendPayoutJob, SettlePayoutJob],
  }),
];
