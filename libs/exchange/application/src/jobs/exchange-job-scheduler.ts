import { jobSchedulerProvider } from '@xaalis/jobs';
import { EXCHANGE_JOB_SCHEDULER } from '../exchange.tokens';
import { AdvanceExchangeJob } from './advance-exchange.job';
import { FundExchangeAccountJob } from './fund-account.job';

export const exchangeJobProviders = [
  AdvanceExchangeJob,
  FundExchangeAccountJob,
  jobSchedulerProvider({
    provide: EXCHANGE_JOB_SCHEDULER,
    name: 'Exchange',
    handlers: [AdvanceExchangeJob, FundExchangeAccountJob],
  }),
];
