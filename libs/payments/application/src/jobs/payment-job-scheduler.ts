import { jobSchedulerProvider } from '@xaalis/jobs';
import { ExpirePaymentJob } from './expire-payment.job';
import { ProviderLookup } from './provider-lookup';
import { ReconcilePaymentJob } from './reconcile-payment.job';
import { SettleRefundJob } from './settle-refund.job';

/** The payments app's job scheduler (a `JobScheduler`), for tests that drive the clock. */
export const PAYMENT_JOB_SCHEDULER = 'XAALIS_PAYMENT_JOB_SCHEDULER';

/**
 * Expiry, reconciliation and refund settlement: rows the projection writes with the events that
 * ask for them. Every job ends in a decider command (a no-op when already applied) or a ledger
 * posting keyed by its ref, so running one twice changes nothing.
 */
export const paymentJobProviders = [
  ProviderLookup,
  ExpirePaymentJob,
  ReconcilePaymentJob,
  SettleRefundJob,
  jobSchedulerProvider({
    provide: PAYMENT_JOB_SCHEDULER,
    name: 'Payment',
    handlers: [ExpirePaymentJob, ReconcilePaymentJob, SettleRefundJob],
  }),
];
