import { Inject, Injectable } from '@nestjs/common';
import { CLOCK } from '@xaalis/config';
import type { Clock } from '@xaalis/kernel';
import { IdentityQueries } from '../read-model/identity.queries';
import { signingSecrets } from './signing-secrets';
import { WebhookSecretCipher } from './webhook-secret-cipher';

/**
 * The one reader of a merchant's webhook secrets in clear, for whoever signs deliveries (the
 * webhooks app asks the gateway over the bus, `gateway.webhook_secret.get`).
 * Never put its results in a response, an event or a log line.
 */
@Injectable()
export class WebhookSecrets {
  constructor(
    private readonly queries: IdentityQueries,
    private readonly cipher: WebhookSecretCipher,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** What signs a delivery now, newest first: two secrets during a roll's overlap, else one. */
  async signingSecretsOf(merchantId: string): Promise<string[]> {
    const stored = await this.queries.webhookSecretsEncrypted(merchantId);
    return signingSecrets(stored, this.clock.now()).map((encrypted) =>
      this.cipher.decrypt(encrypted, merchantId),
    );
  }

  /** The current secret alone: the one given at creation or by the last roll. */
  async secretOf(merchantId: string): Promise<string> {
    const stored = await this.queries.webhookSecretsEncrypted(merchantId);
    return this.cipher.decrypt(stored.current, merchantId);
  }
}
