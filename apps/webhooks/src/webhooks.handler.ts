import { Controller } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  INTEGRATION_EVENT_TYPES,
  reply,
  topicOf,
  WEBHOOKS_DELIVERY_LIST,
  WEBHOOKS_DELIVERY_RETRY,
  WEBHOOKS_ENDPOINT_CREATE,
  WEBHOOKS_ENDPOINT_LIST,
  WEBHOOKS_ENDPOINT_SET_DEFAULT,
  WEBHOOKS_ENDPOINT_UPDATE,
  WEBHOOKS_EVENT_GET,
  WEBHOOKS_EVENT_LIST,
} from '@xaalis/contracts';
import { WebhookEventsConsumer, WebhooksService } from '@xaalis/webhook-dispatch';

/**
 * Every integration event (merchant events become deliveries; `account.updated` keeps the
 * default endpoint, which `PATCH /v1/account` has usually set already by request) and the
 * gateway's requests.
 */
@Controller()
export class WebhooksHandler {
  constructor(
    private readonly consumer: WebhookEventsConsumer,
    private readonly webhooks: WebhooksService,
  ) {}

  @EventPattern(INTEGRATION_EVENT_TYPES.map(topicOf))
  receive(@Payload() payload: unknown): Promise<void> {
    return this.consumer.receive(payload);
  }

  @MessagePattern(WEBHOOKS_ENDPOINT_CREATE)
  createEndpoint(@Payload() payload: unknown) {
    return reply(WEBHOOKS_ENDPOINT_CREATE, payload, (r) => this.webhooks.createEndpoint(r));
  }

  @MessagePattern(WEBHOOKS_ENDPOINT_LIST)
  endpoints(@Payload() payload: unknown) {
    return reply(WEBHOOKS_ENDPOINT_LIST, payload, (r) => this.webhooks.endpoints(r));
  }

  @MessagePattern(WEBHOOKS_ENDPOINT_UPDATE)
  updateEndpoint(@Payload() payload: unknown) {
    return reply(WEBHOOKS_ENDPOINT_UPDATE, payload, (r) => this.webhooks.updateEndpoint(r));
  }

  @MessagePattern(WEBHOOKS_ENDPOINT_SET_DEFAULT)
  setDefaultEndpoint(@Payload() payload: unknown) {
    return reply(WEBHOOKS_ENDPOINT_SET_DEFAULT, payload, (r) =>
      this.webhooks.setDefaultEndpoint(r),
    );
  }

  @MessagePattern(WEBHOOKS_DELIVERY_LIST)
  deliveries(@Payload() payload: unknown) {
    return reply(WEBHOOKS_DELIVERY_LIST, payload, (r) => this.webhooks.deliveries(r));
  }

  @MessagePattern(WEBHOOKS_DELIVERY_RETRY)
  retry(@Payload() payload: unknown) {
    return reply(WEBHOOKS_DELIVERY_RETRY, payload, (r) => this.webhooks.retry(r));
  }

  @MessagePattern(WEBHOOKS_EVENT_GET)
  getEvent(@Payload() payload: unknown) {
    return reply(WEBHOOKS_EVENT_GET, payload, (r) => this.webhooks.event(r));
  }

  @MessagePattern(WEBHOOKS_EVENT_LIST)
  events(@Payload() payload: unknown) {
    return reply(WEBHOOKS_EVENT_LIST, payload, (r) => this.webhooks.events(r));
  }
}
