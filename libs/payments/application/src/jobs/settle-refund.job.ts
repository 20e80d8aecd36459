import { Inject, Injectable } from '@nestjs/common';
import { BUS_CLIENT, CLOCK, CONFIG, type XaalisConfig } from '@xaalis/config';
import {
  PAYOUTS_LEDGER_RELEASE,
  PAYOUTS_LEDGER_SETTLE,
  request,
  type BusRequester,
} from '@xaalis/contracts';
import {
  jobDone,
  retryLater,
  runAgainAt,
  type Job,
  type JobHandler,
  type JobResult,
} from '@xaalis/jobs';
import { DomainError, type Clock } from '@xaalis/kernel';
import { DECLINED_TEST_PHONE, type Payment } from '@xaalis/payments-domain';
import { PaymentCommands } from '../payment.commands.service';
import { PAYMENT_JOB_KINDS, parseRefundJobReference } from '../payment-jobs.kinds';
import { PaymentQueries } from '../payment.queries';
import { LIVE_PROVIDERS } from '../payments.tokens';
import type { LiveProviders } from '../provider-starter';
import { refundRef, RefundsService } from '../refunds.service';

/**
 * A refund's life after the request: make sure its amount is held, wait out the sandbox's
 * settlement delay (test mode) or ask the provider (live), then settle or release the hold in
 * the ledger and record the outcome on the payment. Ledger postings are keyed by the refund,
 * so a rerun after a crash posts nothing twice.
 */
@Injectable()
export class SettleRefundJob implements JobHandler {
  readonly kind = PAYMENT_JOB_KINDS.refund;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: XaalisConfig,
    @Inject(BUS_CLIENT) private readonly bus: BusRequester,
    @Inject(LIVE_PROVIDERS) private readonly live: LiveProviders,
    private readonly queries: PaymentQueries,
    private readonly commands: PaymentCommands,
    private readonly refunds: RefundsService,
  ) {}

  async run(job: Job): Promise<JobResult> {
    const ref = parseRefundJobReference(job.reference);
    const payment = ref && (await this.queries.find(ref.paymentId));
    if (!ref || !payment) return jobDone;
    const refundId = ref.refundId;
    const refund = payment.refunds.find((candidate) => candidate.refundId === refundId);
    if (!refund || refund.status !== 'pending') return jobDone;
    const now = this.clock.now();
    const scope = { merchant_id: payment.merchantId, mode: payment.mode, ref: refundRef(refundId) };
    try {
      await this.refunds.hold(payment, refund);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'insufficient_funds') throw error;
      await this.settle(payment, refundId, 'failed', 'insufficient_funds', now);
      return jobDone;
    }

    let outcome: 'succeeded' | 'failed';
    let reason: string | null = null;
    if (payment.mode === 'test') {
      const settleAt = Date.parse(refund.createdAt) + this.config.sandboxSettleMs;
      if (now.getTime() < settleAt) return runAgainAt(new Date(settleAt));
      const refused = payment.customer.phone === DECLINED_TEST_PHONE;
      outcome = refused ? 'failed' : 'succeeded';
      reason = refused ? 'recipient_refused' : null;
    } else {
      const provider = payment.provider;
      if (provider !== 'wave' && provider !== 'orange_money') {
        throw new Error(`live payment ${payment.paymentId} has no live provider`);
      }
      const result = await this.live[provider].refund({
        refundId,
        paymentId: payment.paymentId,
        providerReference: payment.providerReference,
        providerTransactionId: payment.providerTransactionId,
        amount: refund.amount,
        paymentAmount: payment.amount,
        customerPhone: payment.customer.phone,
      });
      if (result.outcome === 'unknown') return retryLater(result.reason);
      outcome = result.outcome === 'refused' ? 'failed' : 'succeeded';
      reason = result.outcome === 'refused' ? result.reason : null;
    }
    await request(
      this.bus,
      outcome === 'succeeded' ? PAYOUTS_LEDGER_SETTLE : PAYOUTS_LEDGER_RELEASE,
      scope,
    );
    await this.settle(payment, refundId, outcome, reason, now);
    return jobDone;
  }

  private async settle(
    payment: Payment,
    refundId: string,
    outcome: 'succeeded' | 'failed',
    reason: string | null,
    now: Date,
  ): Promise<void> {
    await this.commands.run(payment.paymentId, {
      type: 'SettleRefund',
      data: { refundId, outcome, reason, now },
    });
  }
}
