import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, CONFIG, type XaalisConfig } from '@xaalis/config';
import type { ProviderNotificationRequest } from '@xaalis/contracts';
import type { Clock } from '@xaalis/kernel';
import type { FeeSchedule, Payment } from '@xaalis/payments-domain';
import { PaymentCommands } from './payment.commands.service';
import { PaymentQueries } from './payment.queries';
import { LIVE_PROVIDERS } from './payments.tokens';
import type { LiveProviders } from './provider-starter';

/**
 * What live providers say of a payment, as commands on it: their notifications (webhooks and
 * callbacks) behind the bus pattern, and the answers the payment jobs get when they ask
 * (`ProviderLookup`).
 */
@Injectable()
export class ProviderOutcomes {
  private readonly logger = new Logger('Payments');
  private readonly fees: FeeSchedule;

  constructor(
    private readonly commands: PaymentCommands,
    private readonly queries: PaymentQueries,
    @Inject(LIVE_PROVIDERS) private readonly live: LiveProviders,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) config: XaalisConfig,
  ) {
    this.fees = config.feeBps;
  }

  /**
   * A live provider's webhook or callback. It is verified first (a forged one changes nothing);
   * a notification for a payment that is not that provider's live payment is refused.
   */
  async notify(request: ProviderNotificationRequest): Promise<{ accepted: boolean }> {
    const now = this.clock.now();
    const notification = this.live[request.provider].parseNotification({
      headers: request.headers,
      rawBody: request.raw_body,
      now,
    });
    if (notification === null) return { accepted: true };
    const payment = await this.queries.find(notification.paymentId);
    if (!payment || payment.mode !== 'live' || payment.provider !== request.provider) {
      this.logger.warn(`${request.provider} notification for an unknown payment`);
      return { accepted: false };
    }
    await this.apply(payment, notification, now);
    return { accepted: true };
  }

  /** One place maps what a provider says (notification or reconciliation) to a command. */
  async apply(
    payment: Payment,
    outcome: {
      outcome: 'succeeded' | 'failed' | 'pending';
      providerReference: string | null;
      transactionId: string | null;
      reason: string | null;
      redirectUrl?: string | null;
    },
    now: Date,
  ): Promise<Payment> {
    const id = payment.paymentId;
    switch (outcome.outcome) {
      case 'succeeded':
        return (
          await this.commands.run(id, {
            type: 'ConfirmPayment',
            data: {
              trigger: 'provider',
              providerTransactionId: outcome.transactionId,
              fees: this.fees,
              now,
            },
          })
        ).payment;
      case 'failed':
        if (payment.status !== 'requires_payment_method' && payment.status !== 'processing') {
          return payment;
        }
        return (
          await this.commands.run(id, {
            type: 'FailPayment',
            data: { trigger: 'provider', reason: outcome.reason ?? 'declined', now },
          })
        ).payment;
      case 'pending':
        if (outcome.providerReference === null) return payment;
        return (
          await this.commands.run(id, {
            type: 'RecordSession',
            data: {
              providerReference: outcome.providerReference,
              redirectUrl: outcome.redirectUrl ?? null,
              now,
            },
          })
        ).payment;
    }
  }
}
