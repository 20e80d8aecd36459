import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { CLOCK } from '@xaalis/config';
import type { ExchangeAccount } from '@xaalis/exchange-domain';
import { newId, type Clock } from '@xaalis/kernel';
import { ExchangeCommands } from './exchange.commands';
import { ExchangeQueries } from './exchange.queries';

/**
 * The service's own test-mode account, opened on the first start (its stream, so every replica
 * and restart finds the same one). The projection then schedules its funding
 * (`exchange.fund_account`), which goes through the payments context like any test payment.
 */
@Injectable()
export class ExchangeAccountService implements OnApplicationBootstrap {
  private opened: Promise<ExchangeAccount> | undefined;

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly commands: ExchangeCommands,
    private readonly queries: ExchangeQueries,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.account();
  }

  /** The account, opened now if this is the first start; never changes once opened. */
  account(): Promise<ExchangeAccount> {
    this.opened ??= this.open().catch((error: unknown) => {
      this.opened = undefined;
      throw error;
    });
    return this.opened;
  }

  private async open(): Promise<ExchangeAccount> {
    const existing = await this.queries.account();
    if (existing) return existing;
    const { state } = await this.commands.account({
      type: 'OpenExchangeAccount',
      data: {
        merchantId: newId('merchant'),
        floatPaymentId: newId('payment'),
        now: this.clock.now(),
      },
    });
    if (state === null) throw new Error('the exchange account was not opened');
    return state;
  }
}
