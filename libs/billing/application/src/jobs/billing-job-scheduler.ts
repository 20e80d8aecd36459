import { jobSchedulerProvider } from '@xaalis/jobs';
import { BILLING_JOB_SCHEDULER } from '../billing.tokens';
import { BillingTickJob } from './billing-tick.job';

/** The billing clock: one durable `billing.tick` job per subscription with anything ahead. */
export const billingJobProviders = [
  BillingTickJob,
  jobSchedulerProvider({
    provide: BILLING_JOB_SCHEDULER,
    name: 'Billing',
    handlers: [BillingTickJob],
  }),
];
