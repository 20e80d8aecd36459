import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK } from '@xaalis/config';
import type { PaymentReply, PayoutReply } from '@xaalis/contracts';
import type { ExchangeCommand } from '@xaalis/exchange-domain';
import { DomainError, type Clock } from '@xaalis/kernel';
import { ExchangeAccountService } from './exchange-account.service';
import { ExchangeCommands } from './exchange.commands';
import { refundIdOf } from './exchange-money';

type PaymentOutcome = 'succeeded' | 'failed' | 'expired' | 'refunded';
type PayoutOutcome = 'succeeded' | 'failed';

/**
 * What the payments and payouts contexts report (their integration events, at least once, in no
 * order across streams), applied to the exchange they name: a payment names it in its metadata, a
 * payout in its `client_reference`, and either must be the service's own account's. The decider
 * records each fact once, so a redelivery changes nothing.
 */
@Injectable()
export class ExchangeProgress {
  private readonly logger = new Logger('ExchangeProgress');

  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly commands: ExchangeCommands,
    private readonly accounts: ExchangeAccountService,
  ) {}

  async payment(outcome: PaymentOutcome, merchantId: string, payment: PaymentReply) {
    const exchangeId = payment.metadata['exchange'];
    if (exchangeId === undefined || !(await this.isOwn(merchantId))) return;
    await this.record(exchangeId, this.paymentCommand(outcome, exchangeId, payment.id));
  }

  async payout(outcome: PayoutOutcome, merchantId: string, payout: PayoutReply) {
    const exchangeId = payout.client_reference;
    if (exchangeId === null || !exchangeId.startsWith('ex_') || !(await this.isOwn(merchantId))) {
      return;
    }
    const now = this.clock.now();
    await this.record(
      exchangeId,
      outcome === 'succeeded'
        ? { type: 'RecordPayoutSucceeded', data: { payoutId: payout.id, now } }
        : {
            type: 'RecordPayoutFailed',
            data: { payoutId: payout.id, refundId: refundIdOf({ exchangeId }), now },
          },
    );
  }

  private paymentCommand(
    outcome: PaymentOutcome,
    exchangeId: string,
    paymentId: string,
  ): ExchangeCommand {
    const now = this.clock.now();
    switch (outcome) {
      case 'succeeded':
        return { type: 'RecordPaymentSucceeded', data: { paymentId, now } };
      case 'failed':
        return { type: 'RecordPaymentFailed', data: { paymentId, now } };
      case 'expired':
        return { type: 'RecordPaymentExpired', data: { paymentId, now } };
      case 'refunded':
        // The refund a failed payout asked for (one id per exchange); none asked: invalid_state.
        return { type: 'RecordRefundSettled', data: { refundId: refundIdOf({ exchangeId }), now } };
    }
  }

  private async isOwn(merchantId: string): Promise<boolean> {
    return (await this.accounts.account()).merchantId === merchantId;
  }

  /** A fact that no longer applies (a payment failing after the exchange expired) is logged. */
  private async record(exchangeId: string, command: ExchangeCommand): Promise<void> {
    try {
      await this.commands.exchange(exchangeId, command);
    } catch (error) {
      if (error instanceof DomainError && ['invalid_state', 'not_found'].includes(error.code)) {
        this.logger.warn(`${exchangeId}: ${command.type} not applied (${error.message})`);
        return;
      }
      throw error;
    }
  }
}
