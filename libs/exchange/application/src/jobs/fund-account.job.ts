import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@xaalis/config';
import { jobDone, type Job, type JobHandler, type JobResult } from '@xaalis/jobs';
import type { Clock } from '@xaalis/kernel';
import { ExchangeAccountService } from '../exchange-account.service';
import { ExchangeCommands } from '../exchange.commands';
import { EXCHANGE_JOB_KINDS } from '../exchange-jobs.kinds';
import { ExchangeMoney } from '../exchange-money';

/**
 * The service's account gets its float once, through the payments context (a test payment to
 * itself), then records it, which ends the job (the projection deletes it).
 */
@Injectable()
export class FundExchangeAccountJob implements JobHandler {
  readonly kind = EXCHANGE_JOB_KINDS.fundAccount;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly accounts: ExchangeAccountService,
    private readonly commands: ExchangeCommands,
    private readonly money: ExchangeMoney,
  ) {}

  async run(_job: Job): Promise<JobResult> {
    await this.money.fund(await this.accounts.account());
    await this.commands.account({ type: 'RecordAccountFunded', data: { now: this.clock.now() } });
    return jobDone;
  }
}
