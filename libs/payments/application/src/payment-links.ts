import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, type XaalisConfig } from '@xaalis/config';
import { BoundedMap } from '@xaalis/kernel';
import {
  clientSecretFor,
  isClientSecretOf,
  type Payment,
  type PaymentLinks,
} from '@xaalis/payments-domain';

/** Client secrets remembered; each is a pure function of its payment id, so never stale. */
const REMEMBERED_SECRETS = 10_000;

/**
 * The public base URL and the derived client secret of each payment (never stored in a stream or
 * table). Every read of a payment shows its `checkout_url`, so the latest secrets derived are kept
 * in memory rather than derived again: an HMAC each is a measurable part of a read.
 */
@Injectable()
export class PaymentLinker {
  private readonly key: string;
  private readonly secrets = new BoundedMap<string, string>(REMEMBERED_SECRETS);

  constructor(@Inject(CONFIG) private readonly config: XaalisConfig) {
    if (!config.secretHashKey) throw new Error('config.secretHashKey is required by payments');
    this.key = config.secretHashKey;
  }

  /** Read on each use: with PORT=0 the composition root learns the port after listening. */
  get baseUrl(): string {
    return this.config.publicBaseUrl;
  }

  links(payment: Pick<Payment, 'paymentId'>): PaymentLinks {
    return { baseUrl: this.baseUrl, clientSecret: this.clientSecret(payment.paymentId) };
  }

  private clientSecret(paymentId: string): string {
    let secret = this.secrets.get(paymentId);
    if (secret === undefined) {
      secret = clientSecretFor(paymentId, this.key);
      this.secrets.set(paymentId, secret);
    }
    return secret;
  }

  /** Constant time; a wrong secret and an unknown payment look the same to the caller. */
  isClientSecret(paymentId: string, candidate: string): boolean {
    return isClientSecretOf(paymentId, candidate, this.key);
  }
}
