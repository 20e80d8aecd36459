import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, CONFIG, type XaalisConfig } from '@xaalis/config';
import type {
  CreateWebhookEndpointRequest,
  ListWebhookEventsRequest,
  SetDefaultWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
  WebhookDeliveryListReply,
  WebhookDeliveryRef,
  WebhookDeliveryReply,
  WebhookEndpointListReply,
  WebhookEndpointReply,
  WebhookEventListReply,
  WebhookEventRef,
  WebhookEventReply,
  ListRequest,
} from '@xaalis/contracts';
import { DomainError, invalidState, notFound, type Clock } from '@xaalis/kernel';
import { DeliveryQueue } from './delivery-queue';
import { WebhookAttempt } from './webhook-attempt';
import { WebhookEndpoints } from './webhook-endpoints';
import { WebhookQueries } from './webhook-queries';
import { toDeliveryObject, toEndpointObject, toEventObject } from './webhook-rows';

/** The webhooks app's answers to the gateway: endpoints, deliveries, events of one merchant and mode. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhookEndpoints: WebhookEndpoints,
    private readonly queue: DeliveryQueue,
    private readonly queries: WebhookQueries,
    private readonly attempt: WebhookAttempt,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: XaalisConfig,
  ) {}

  async createEndpoint(request: CreateWebhookEndpointRequest): Promise<WebhookEndpointReply> {
    const row = await this.webhookEndpoints.create({
      id: request.endpoint_id,
      merchantId: request.merchant_id,
      mode: request.mode,
      url: request.url,
      eventTypes: unique(request.event_types),
      now: this.clock.now(),
    });
    if (!row) throw invalidState('This webhook endpoint id is already used.');
    return toEndpointObject(row);
  }

  async updateEndpoint(request: UpdateWebhookEndpointRequest): Promise<WebhookEndpointReply> {
    const row = await this.webhookEndpoints.update({
      merchantId: request.merchant_id,
      mode: request.mode,
      id: request.endpoint_id,
      eventTypes: request.event_types && unique(request.event_types),
      active: request.active,
      now: this.clock.now(),
    });
    if (!row) throw notFound('webhook endpoint');
    return toEndpointObject(row);
  }

  /**
   * The account's URL as the mode's default endpoint, now: `PATCH /v1/account` waits for this, so
   * every event after its answer finds the endpoint. Answers with the default endpoint as it
   * stands, which a newer change may already have moved on.
   */
  async setDefaultEndpoint(
    request: SetDefaultWebhookEndpointRequest,
  ): Promise<WebhookEndpointReply> {
    const row = await this.webhookEndpoints.setDefault({
      merchantId: request.merchant_id,
      mode: request.mode,
      url: request.url,
      at: new Date(request.at),
    });
    return toEndpointObject(row);
  }

  async endpoints(request: ListRequest): Promise<WebhookEndpointListReply> {
    const rows = await this.webhookEndpoints.list(request.merchant_id, request.mode, page(request));
    return toPage(rows, request, toEndpointObject);
  }

  async deliveries(request: ListRequest): Promise<WebhookDeliveryListReply> {
    const rows = await this.queries.deliveries(request.merchant_id, request.mode, page(request));
    return toPage(rows, request, toDeliveryObject);
  }

  /** Sends now, whatever the delivery's status, and answers with the outcome. */
  async retry(request: WebhookDeliveryRef): Promise<WebhookDeliveryReply> {
    const leased = await this.queue.leaseOne({
      merchantId: request.merchant_id,
      mode: request.mode,
      deliveryId: request.delivery_id,
      now: this.clock.now(),
      leaseMs: this.config.webhookLeaseMs,
    });
    if (!leased) throw notFound('webhook delivery');
    await this.attempt.run(leased);
    const row = await this.queries.delivery(request.merchant_id, request.mode, request.delivery_id);
    if (!row) throw notFound('webhook delivery');
    return toDeliveryObject(row);
  }

  async event(request: WebhookEventRef): Promise<WebhookEventReply> {
    const row = await this.queries.event(request.merchant_id, request.mode, request.event_id);
    if (!row) throw notFound('event');
    return toEventObject(row);
  }

  async events(request: ListWebhookEventsRequest): Promise<WebhookEventListReply> {
    const rows = await this.queries.events(request.merchant_id, request.mode, {
      ...page(request),
      type: request.type,
    });
    return toPage(rows, request, toEventObject);
  }
}

const unique = (values: readonly string[]): string[] => [...new Set(values)];

const page = (request: ListRequest) => ({
  limit: request.limit,
  startingAfter: request.starting_after,
});

function toPage<Row, Item>(
  rows: Row[] | undefined,
  request: ListRequest,
  toItem: (row: Row) => Item,
): { data: Item[]; has_more: boolean } {
  if (rows === undefined) {
    throw new DomainError(
      'not_found',
      `No such object: ${request.starting_after} (starting_after).`,
      {
        param: 'starting_after',
      },
    );
  }
  return { data: rows.slice(0, request.limit).map(toItem), has_more: rows.length > request.limit };
}
