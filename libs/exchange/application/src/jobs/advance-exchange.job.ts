import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@xaalis/config';
import { phoneDayStream, type Exchange } from '@xaalis/exchange-domain';
import { failpoint } from '@xaalis/failpoints';
import { jobDone, type Job, type JobHandler, type JobResult } from '@xaalis/jobs';
import type { Clock } from '@xaalis/kernel';
import { ExchangeAccountService } from '../exchange-account.service';
import { ExchangeCommands } from '../exchange.commands';
import { EXCHANGE_JOB_KINDS } from '../exchange-jobs.kinds';
import { ExchangeMoney } from '../exchange-money';
import { ExchangeQueries } from '../exchange.queries';

/**
 * What an exchange's state asks next, each step idempotent by an id fixed at its creation, so
 * that a run repeated after a crash changes nothing more:
 * - awaiting payment: its payment exists (made here if the request died before making it);
 * - processing (paid): `receive_amount` is paid out to the phone;
 * - failed or expired: a payout that failed after the payment is refunded in full (asked of
 *   payments, which settles it), then the phone's Dakar day is freed of it, and that recorded on
 *   the exchange last: once it is, nothing is left to do (the projection deletes the job).
 * A step the other context refuses for now (the account short of funds) throws: the scheduler
 * retries it with backoff, and nothing was changed meanwhile.
 */
@Injectable()
export class AdvanceExchangeJob implements JobHandler {
  readonly kind = EXCHANGE_JOB_KINDS.advance;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly queries: ExchangeQueries,
    private readonly commands: ExchangeCommands,
    private readonly accounts: ExchangeAccountService,
    private readonly money: ExchangeMoney,
  ) {}

  async run(job: Job): Promise<JobResult> {
    const exchange = await this.queries.exchange(job.reference);
    if (exchange === null) return jobDone;
    const account = await this.accounts.account();
    switch (exchange.status) {
      case 'awaiting_payment':
        await this.money.ensurePayment(exchange, account);
        return jobDone;
      case 'processing':
        failpoint('exchange.advance.before_payout');
        await this.money.payOut(exchange, account);
        return jobDone;
      case 'failed':
      case 'expired':
        if (exchange.dayReleasedAt !== null) return jobDone;
        if (exchange.refundId !== null && exchange.refundedAt === null) {
          await this.money.refund(exchange, account);
        }
        await this.freeTheDay(exchange);
        return jobDone;
      case 'completed':
        return jobDone;
    }
  }

  /** The day the exchange was reserved on: its creation's, which is its quote's redemption. */
  private async freeTheDay(exchange: Exchange): Promise<void> {
    const day = new Date(exchange.createdAt);
    await this.commands.phoneDay(phoneDayStream(exchange.phone, day), {
      type: 'ReleaseAmount',
      data: { exchangeId: exchange.exchangeId, now: this.clock.now() },
    });
    await this.commands.exchange(exchange.exchangeId, {
      type: 'RecordDayReleased',
      data: { now: this.clock.now() },
    });
  }
}
