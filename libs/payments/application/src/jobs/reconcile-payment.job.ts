import { Injectable } from '@nestjs/common';
import { jobDone, retryLater, type Job, type JobHandler, type JobResult } from '@xaalis/jobs';
import { PAYMENT_JOB_KINDS } from '../payment-jobs.kinds';
import { PaymentQueries } from '../payment.queries';
import { ProviderLookup } from './provider-lookup';

/**
 * A live payment still waiting on its provider: ask until it ends (a lost webhook, an unknown
 * outcome at the start), recording a session found meanwhile. Asked again after the backoff (up
 * to 5 minutes); the expiry job takes over at `expires_at`.
 */
@Injectable()
export class ReconcilePaymentJob implements JobHandler {
  readonly kind = PAYMENT_JOB_KINDS.reconcile;

  constructor(
    private readonly queries: PaymentQueries,
    private readonly provider: ProviderLookup,
  ) {}

  async run(job: Job): Promise<JobResult> {
    const payment = await this.queries.find(job.reference);
    if (!payment || payment.status !== 'processing' || payment.mode !== 'live') return jobDone;
    return (await this.provider.ended(payment)) ? jobDone : retryLater();
  }
}
