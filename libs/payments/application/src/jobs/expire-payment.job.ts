import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@xaalis/config';
import { jobDone, runAgainAt, type Job, type JobHandler, type JobResult } from '@xaalis/jobs';
import { DomainError, type Clock } from '@xaalis/kernel';
import { isOpen, type ExpirePayment, type Payment } from '@xaalis/payments-domain';
import { PaymentCommands, type CommandOutcome } from '../payment.commands.service';
import { PAYMENT_JOB_KINDS } from '../payment-jobs.kinds';
import { ProviderLookup } from './provider-lookup';

/** A live payment on a provider's page may have been paid: its provider is asked first. */
const mayHaveBeenPaid = (payment: Payment): boolean =>
  payment.mode === 'live' && payment.status === 'processing' && payment.provider !== 'mock';

/**
 * At `expires_at`: the command is decided on the stream it reads (the decider leaves a payment
 * already ended, or not due yet, as it is), so a payment expires in one read and one append.
 * Only a live payment the customer may have paid is held back, to ask its provider first.
 */
@Injectable()
export class ExpirePaymentJob implements JobHandler {
  readonly kind = PAYMENT_JOB_KINDS.expire;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly commands: PaymentCommands,
    private readonly provider: ProviderLookup,
  ) {}

  async run(job: Job): Promise<JobResult> {
    const now = this.clock.now();
    const expire: ExpirePayment = { type: 'ExpirePayment', data: { trigger: 'scheduler', now } };
    let outcome: CommandOutcome;
    try {
      outcome = await this.commands.run(job.reference, expire, { unless: mayHaveBeenPaid });
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found') return jobDone;
      throw error;
    }
    const { payment, changed } = outcome;
    if (changed || !isOpen(payment)) return jobDone;
    if (now.getTime() < Date.parse(payment.expiresAt)) {
      return runAgainAt(new Date(payment.expiresAt));
    }
    if (await this.provider.ended(payment)) return jobDone;
    await this.commands.run(payment.paymentId, expire);
    return jobDone;
  }
}
