import { Injectable } from '@nestjs/common';
import { jobDone, type Job, type JobHandler, type JobResult } from '@xaalis/jobs';
import { ExchangeAccountService } from '../exchange-account.service';
import { EXCHANGE_JOB_KINDS } from '../exchange-jobs.kinds';
import { ExchangeMoney } from '../exchange-money';

/** The service's account gets its float once, through the payments context (a test payment). */
@Injectable()
export class FundExchangeAccountJob implements JobHandler {
  readonly kind = EXCHANGE_JOB_KINDS.fundAccount;

  constructor(
    private readonly accounts: ExchangeAccountService,
    private readonly money: ExchangeMoney,
  ) {}

  async run(_job: Job): Promise<JobResult> {
    await this.money.fund(await this.accounts.account());
    return jobDone;
  }
}
