import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@xaalis/config';
import { jobDone, runAgainAt, type Job, type JobHandler, type JobResult } from '@xaalis/jobs';
import type { Clock } from '@xaalis/kernel';
import { isOpen } from '@xaalis/payments-domain';
import { PaymentCommands } from '../payment.commands.service';
import { PAYMENT_JOB_KINDS } from '../payment-jobs.kinds';
import { PaymentQueries } from '../payment.queries';
import { ProviderLookup } from './provider-lookup';

/** At `expires_at`: a live payment the customer may have paid is asked about first. */
@Injectable()
export class ExpirePaymentJob implements JobHandler {
  readonly kind = PAYMENT_JOB_KINDS.expire;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly queries: PaymentQueries,
    private readonly commands: PaymentCommands,
    private readonly provider: ProviderLookup,
  ) {}

  async run(job: Job): Promise<JobResult> {
    const payment = await this.queries.find(job.reference);
    if (!payment || !isOpen(payment)) return jobDone;
    const now = this.clock.now();
    if (now.getTime() < Date.parse(payment.expiresAt)) {
      return runAgainAt(new Date(payment.expiresAt));
    }
    if (payment.mode === 'live' && payment.status === 'processing' && payment.provider !== 'mock') {
      if (await this.provider.ended(payment)) return jobDone;
    }
    await this.commands.run(payment.paymentId, {
      type: 'ExpirePayment',
      data: { trigger: 'scheduler', now },
    });
    return jobDone;
  }
}
