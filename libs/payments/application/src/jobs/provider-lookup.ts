import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@xaalis/config';
import type { Clock } from '@xaalis/kernel';
import type { Payment } from '@xaalis/payments-domain';
import { ProviderOutcomes } from '../provider-outcomes';
import { LIVE_PROVIDERS } from '../payments.tokens';
import type { LiveProviders } from '../provider-starter';

/**
 * Asks a live payment's provider where it stands and records the answer, for the jobs that
 * cannot wait for a webhook (reconciliation, and expiry of a payment the customer may have paid).
 */
@Injectable()
export class ProviderLookup {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LIVE_PROVIDERS) private readonly live: LiveProviders,
    private readonly outcomes: ProviderOutcomes,
  ) {}

  /** True when the provider's answer ended the payment. */
  async ended(payment: Payment): Promise<boolean> {
    if (payment.provider !== 'wave' && payment.provider !== 'orange_money') return false;
    const status = await this.live[payment.provider].lookup({
      paymentId: payment.paymentId,
      providerReference: payment.providerReference,
    });
    const now = this.clock.now();
    switch (status.status) {
      case 'succeeded':
        await this.outcomes.apply(
          payment,
          {
            outcome: 'succeeded',
            providerReference: status.providerReference,
            transactionId: status.transactionId,
            reason: null,
          },
          now,
        );
        return true;
      case 'failed':
        await this.outcomes.apply(
          payment,
          {
            outcome: 'failed',
            providerReference: status.providerReference,
            transactionId: null,
            reason: status.reason,
          },
          now,
        );
        return true;
      case 'pending':
        if (status.providerReference !== null && payment.providerReference === null) {
          await this.outcomes.apply(
            payment,
            {
              outcome: 'pending',
              providerReference: status.providerReference,
              transactionId: null,
              reason: null,
              redirectUrl: status.redirectUrl,
            },
            now,
          );
        }
        return false;
      case 'not_found':
      case 'unknown':
        return false;
    }
  }
}
