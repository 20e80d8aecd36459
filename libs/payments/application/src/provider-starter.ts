import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@xaalis/kernel';
import type { LivePaymentProvider, LiveProviderName } from '@xaalis/payment-providers';
import {
  checkoutUrl,
  type CustomerProvider,
  type Payment,
  type ProviderStart,
} from '@xaalis/payments-domain';
import { PaymentLinker } from './payment-links';
import { LIVE_PROVIDERS } from './payments.tokens';

export type LiveProviders = Readonly<Record<LiveProviderName, LivePaymentProvider>>;

export type StartablePayment = Pick<
  Payment,
  'paymentId' | 'mode' | 'amount' | 'merchantName' | 'aggregatedMerchantId'
>;

/** Path of the sandbox page (CONTRACT 6); the view adds `?cs=` so no secret is recorded. */
export const sandboxPath = (provider: CustomerProvider, paymentId: string) =>
  `/sandbox/${provider}/${paymentId}`;

/**
 * Starts the provider's side of a payment: the sandbox in test mode (no call out), the live
 * provider otherwise. An unknown outcome (timeout, 429, 5xx) is not an error: the payment goes on
 * `processing` without a redirect and reconciliation asks the provider later.
 */
@Injectable()
export class ProviderStarter {
  private readonly logger = new Logger('ProviderStarter');

  constructor(
    @Inject(LIVE_PROVIDERS) private readonly live: LiveProviders,
    private readonly linker: PaymentLinker,
  ) {}

  async start(
    payment: StartablePayment,
    provider: CustomerProvider,
    customerPhone: string | null,
  ): Promise<ProviderStart> {
    if (payment.mode === 'test') {
      return {
        provider,
        providerReference: `sandbox_${payment.paymentId}`,
        redirectUrl: sandboxPath(provider, payment.paymentId),
      };
    }
    // The provider sends the customer back to our hosted page, which shows how it ended.
    const back = checkoutUrl(payment as Payment, this.linker.links(payment));
    const result = await this.live[provider].startCheckout({
      paymentId: payment.paymentId,
      amount: payment.amount,
      merchantName: payment.merchantName,
      successUrl: back,
      errorUrl: back,
      aggregatedMerchantId: payment.aggregatedMerchantId,
      customerPhone,
    });
    switch (result.outcome) {
      case 'started':
        return {
          provider,
          providerReference: result.providerReference,
          redirectUrl: result.redirectUrl,
        };
      case 'unknown':
        this.logger.warn(
          `${provider} start of ${payment.paymentId}: unknown outcome (${result.reason})`,
        );
        return { provider, providerReference: null, redirectUrl: null };
      case 'refused':
        this.logger.warn(`${provider} refused ${payment.paymentId}: ${result.reason}`);
        throw new DomainError(
          'unavailable',
          `The provider could not start this payment. Try again later or choose another provider.`,
        );
    }
  }
}
