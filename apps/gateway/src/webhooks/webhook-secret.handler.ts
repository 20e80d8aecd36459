import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { GATEWAY_WEBHOOK_SECRET_GET, reply } from '@xaalis/contracts';
import { WebhookSecrets } from '@xaalis/identity';

/**
 * Identity keeps the webhook secret encrypted; the webhooks app signs with it and asks here.
 * The reply travels only on the bus, between our own apps.
 */
@Controller()
export class WebhookSecretHandler {
  constructor(private readonly secrets: WebhookSecrets) {}

  @MessagePattern(GATEWAY_WEBHOOK_SECRET_GET)
  get(@Payload() payload: unknown) {
    return reply(GATEWAY_WEBHOOK_SECRET_GET, payload, async (request) => ({
      secrets: [await this.secrets.secretOf(request.merchant_id)],
    }));
  }
}
