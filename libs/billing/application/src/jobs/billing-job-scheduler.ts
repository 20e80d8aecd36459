import { jobSchedulerProvider } from '@xaalis/jobs';
import { BILLING_JOB_SCHEDULER } from '../billing.tokens';
import { BillingTickJob } from './billing-tick.job';

/**
 * The billing clock: one durable `billing.tick` job per subscription with anything ahead. A tick
 * is a short decider command (no provider call), and many at once share their appends' round
 * trips: 256 at a time opened 10,000 invoices due together at 1,388–1,687/s where the default
 * 64 managed 942–1,012/s (`npm run bench`, billing line, several runs of each).
 */
export const billingJobProviders = [
  BillingTickJob,
  jobSchedulerProvider({
    provide: BILLING_JOB_SCHEDULER,
    name: 'Billing',
    handlers: [BillingTickJob],
    concurrency: 256,
  }),
];
