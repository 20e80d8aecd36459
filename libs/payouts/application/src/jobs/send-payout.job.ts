import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, CONFIG, type XaalisConfig } from '@xaalis/config';
import { failpoint } from '@xaalis/failpoints';
import {
  jobDone,
  retryLater,
  runAgainAt,
  type Job,
  type JobHandler,
  type JobResult,
} from '@xaalis/jobs';
import { assertNever, DomainError, PAYOUT_FAILURE_REASONS, type Clock } from '@xaalis/kernel';
import type {
  LivePayoutProvider,
  PayoutProviderName,
  PayoutProviderStatus,
} from '@xaalis/payout-providers';
import type { Payout } from '@xaalis/payouts-domain';
import { PayoutOutcomes } from '../payout-outcomes';
import { PAYOUT_JOB_KINDS } from '../payout-jobs.kinds';
import { PayoutsCommands } from '../payouts.commands';
import { LIVE_PAYOUT_PROVIDERS } from '../payouts.tokens';

/** What `StartPayout` answers for a payout that ended, or a job whose payout never existed. */
const ENDED = new Set(['invalid_state', 'not_found']);

/** CONTRACT 6: the test recipient whose payouts the sandbox refuses. */
export const SANDBOX_REFUSED_PHONE = '+221700000002';

/**
 * Sends a pending payout and follows it until it ends (spec 3.4, issue 19 item 5). The payout is
 * recorded `processing` before the provider is called, and every call carries the idempotency
 * key fixed at acceptance, so a run after a crash asks the provider first and sends only what
 * it never received: never twice. A timeout, a 5xx or an answer we cannot read is an unknown
 * outcome: the payout stays `processing` and is asked about again, never failed on a guess.
 *
 * Test mode calls no provider: the sandbox ends the payout `SANDBOX_SETTLE_MS` after it started,
 * refused for `+221700000002`, succeeded otherwise (CONTRACT 6).
 */
@Injectable()
export class SendPayoutJob implements JobHandler {
  readonly kind = PAYOUT_JOB_KINDS.send;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: XaalisConfig,
    @Inject(LIVE_PAYOUT_PROVIDERS)
    private readonly providers: Record<PayoutProviderName, LivePayoutProvider>,
    private readonly commands: PayoutsCommands,
    private readonly outcomes: PayoutOutcomes,
  ) {}

  async run(job: Job): Promise<JobResult> {
    const started = await this.start(job.reference);
    if (started === undefined) return jobDone;
    const payout = started.state;
    if (payout.mode === 'test') return this.sandbox(payout);

    failpoint('payouts.send.before_provider_call');
    const provider = this.providers[payout.provider];
    let answer = started.changed
      ? await provider.send(this.transfer(payout))
      : await provider.lookup({
          payoutId: payout.payoutId,
          providerReference: payout.providerReference,
        });
    // A run that died before its call: the provider never had it, so it is sent now.
    if (answer.status === 'not_found') answer = await provider.send(this.transfer(payout));
    failpoint('payouts.send.after_provider_call');
    return this.record(payout, answer);
  }

  /** `processing` from here on; undefined for a payout that ended already (or never was). */
  private async start(payoutId: string) {
    try {
      return await this.commands.payout(payoutId, {
        type: 'StartPayout',
        data: { now: this.clock.now() },
      });
    } catch (error) {
      if (error instanceof DomainError && ENDED.has(error.code)) return undefined;
      throw error;
    }
  }

  private async sandbox(payout: Payout): Promise<JobResult> {
    const settlesAt = Date.parse(payout.updatedAt) + this.config.sandboxSettleMs;
    if (this.clock.now().getTime() < settlesAt) return runAgainAt(new Date(settlesAt));
    await this.outcomes.end(
      payout.payoutId,
      payout.recipient.phone === SANDBOX_REFUSED_PHONE
        ? { status: 'failed', reason: PAYOUT_FAILURE_REASONS.recipientRefused }
        : { status: 'succeeded' },
    );
    return jobDone;
  }

  private transfer(payout: Payout) {
    return {
      payoutId: payout.payoutId,
      idempotencyKey: payout.providerIdempotencyKey,
      amount: payout.amount,
      recipientPhone: payout.recipient.phone,
      recipientName: payout.recipient.name,
    };
  }

  private async record(payout: Payout, answer: PayoutProviderStatus): Promise<JobResult> {
    if ('providerReference' in answer && answer.providerReference) {
      await this.commands.payout(payout.payoutId, {
        type: 'RecordProviderReference',
        data: { providerReference: answer.providerReference, now: this.clock.now() },
      });
    }
    switch (answer.status) {
      case 'succeeded':
        await this.outcomes.end(payout.payoutId, { status: 'succeeded' });
        return jobDone;
      case 'failed':
        await this.outcomes.end(payout.payoutId, { status: 'failed', reason: answer.reason });
        return jobDone;
      case 'reversed':
        await this.outcomes.end(payout.payoutId, { status: 'reversed' });
        return jobDone;
      case 'processing':
        return retryLater('processing at the provider');
      case 'unknown':
        return retryLater(answer.reason);
      case 'not_found':
        return retryLater('not found at the provider after sending');
      default:
        return assertNever(answer);
    }
  }
}
