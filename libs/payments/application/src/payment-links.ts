import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, type XaalisConfig } from '@xaalis/config';
import {
  clientSecretFor,
  isClientSecretOf,
  type Payment,
  type PaymentLinks,
} from '@xaalis/payments-domain';

/** The public base URL and the derived client secret of each payment (never stored). */
@Injectable()
export class PaymentLinker {
  private readonly key: string;

  constructor(@Inject(CONFIG) private readonly config: XaalisConfig) {
    if (!config.secretHashKey) throw new Error('config.secretHashKey is required by payments');
    this.key = config.secretHashKey;
  }

  /** Read on each use: with PORT=0 the composition root learns the port after listening. */
  get baseUrl(): string {
    return this.config.publicBaseUrl;
  }

  links(payment: Pick<Payment, 'paymentId'>): PaymentLinks {
    return { baseUrl: this.baseUrl, clientSecret: clientSecretFor(payment.paymentId, this.key) };
  }

  /** Constant time; a wrong secret and an unknown payment look the same to the caller. */
  isClientSecret(paymentId: string, candidate: string): boolean {
    return isClientSecretOf(paymentId, candidate, this.key);
  }
}
