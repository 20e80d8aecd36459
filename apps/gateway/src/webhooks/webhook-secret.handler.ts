import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { GATEWAY_WEBHOOK_SECRET_GET, reply } from '@xaalis/contracts';
import { WebhookSecrets } from '@xaalis/identity';

/**
 * Identity keeps the webhook secrets encrypted; the webhooks app signs with them and asks here:
 * the current secret, then the one a roll replaced while its overlap runs (on this app's clock).
 * The reply travels only on the bus, between our own apps.
 */
@Controller()
export class WebhookSecretHandler {
  constructor(private readonly secrets: WebhookSecrets) {}

  @MessagePattern(GATEWAY_WEBHOOK_SECRET_GET)
  get(@Payload() payload: unknown) {
    return reply(GATEWAY_WEBHOOK_SECRET_GET, payload, async (request) => ({
      secrets: await this.secrets.signingSecretsOf(request.merchant_id),
    }));
  }
}
