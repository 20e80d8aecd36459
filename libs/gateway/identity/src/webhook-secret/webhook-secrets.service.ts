import { Injectable } from '@nestjs/common';
import { IdentityQueries } from '../read-model/identity.queries';
import { WebhookSecretCipher } from './webhook-secret-cipher';

/**
 * The one reader of a merchant's webhook secret in clear, for whoever signs deliveries (the
 * webhooks app asks the gateway for it; see the report on wiring that request over the bus).
 * Never put its result in a response, an event or a log line.
 */
@Injectable()
export class WebhookSecrets {
  constructor(
    private readonly queries: IdentityQueries,
    private readonly cipher: WebhookSecretCipher,
  ) {}

  async secretOf(merchantId: string): Promise<string> {
    return this.cipher.decrypt(await this.queries.webhookSecretEncrypted(merchantId), merchantId);
  }
}
