import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { MODES, URL_MAX_LENGTH, type Mode } from '@xaalis/kernel';
import { ListReply } from '../shared/list-reply';
import { idPattern, ISO_MS } from '../shared/formats';
import {
  INTEGRATION_EVENT_TYPES,
  type IntegrationEventType,
} from '../shared/integration-event-types';
import { ListRequest, MerchantScope } from '../shared/merchant-scope';

/** The event types merchants can receive (spec 6); `account.updated` stays internal. */
export const WEBHOOK_EVENT_TYPES = INTEGRATION_EVENT_TYPES.filter(
  (type): type is Exclude<IntegrationEventType, 'account.updated'> => type !== 'account.updated',
);
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What an endpoint may subscribe to: a merchant event type, or `*` for all of them. */
export const WEBHOOK_SUBSCRIPTIONS: readonly string[] = [...WEBHOOK_EVENT_TYPES, '*'];

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** `gateway.webhook_secret.get`: the secrets that sign a merchant's deliveries, in clear. */
export class WebhookSecretRequest {
  @Matches(idPattern('mer'), { message: 'merchant_id must be a merchant id (mer_…)' })
  merchant_id!: string;
}

export class WebhookSecretReply {
  /** Usually one; two while a secret is being replaced (one `v1` per secret). */
  @IsArray()
  @ArrayMinSize(1)
  @IsString({ each: true })
  secrets!: string[];
}

/** `webhooks.endpoint.create`: the gateway has checked the URL against private targets. */
export class CreateWebhookEndpointRequest extends MerchantScope {
  /** Chosen by the caller, the same for every retry of one idempotency key (as a payment's). */
  @Matches(idPattern('we'))
  endpoint_id!: string;

  @IsString()
  @MaxLength(URL_MAX_LENGTH)
  url!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_SUBSCRIPTIONS.length)
  @IsIn(WEBHOOK_SUBSCRIPTIONS, { each: true })
  event_types!: string[];
}

/**
 * `webhooks.endpoint.set_default`: `PATCH /v1/account` asks it before answering, so the URL is
 * the mode's default endpoint (all event types) by the time the merchant hears 200 and every
 * event after that finds it. `account.updated`, consumed later, repeats it harmlessly and covers
 * a request that got no answer.
 */
export class SetDefaultWebhookEndpointRequest extends MerchantScope {
  @IsString()
  @MaxLength(URL_MAX_LENGTH)
  url!: string;

  /** The change's time, as `account.updated` carries it: an older change never undoes a newer. */
  @Matches(ISO_MS)
  at!: string;
}

export class UpdateWebhookEndpointRequest extends MerchantScope {
  @IsString()
  @MaxLength(255)
  endpoint_id!: string;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(WEBHOOK_SUBSCRIPTIONS.length)
  @IsIn(WEBHOOK_SUBSCRIPTIONS, { each: true })
  event_types?: string[];

  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class ListWebhookEventsRequest extends ListRequest {
  @IsOptional()
  @IsIn(INTEGRATION_EVENT_TYPES)
  type?: IntegrationEventType;
}

export class WebhookDeliveryRef extends MerchantScope {
  @IsString()
  @MaxLength(255)
  delivery_id!: string;
}

export class WebhookEventRef extends MerchantScope {
  @IsString()
  @MaxLength(255)
  event_id!: string;
}

/** Spec 2.8. */
export class WebhookEndpointReply {
  @ApiProperty({ enum: ['webhook_endpoint'] })
  @IsIn(['webhook_endpoint'])
  object!: 'webhook_endpoint';

  @ApiProperty({ example: 'we_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  @Matches(idPattern('we'))
  id!: string;

  @ApiProperty({ example: 'mer_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  @Matches(idPattern('mer'))
  merchant_id!: string;

  @ApiProperty({ enum: MODES })
  @IsIn(MODES)
  mode!: Mode;

  @ApiProperty({ description: "The mode's default endpoint, following `PATCH /v1/account`" })
  @IsBoolean()
  is_default!: boolean;

  // A nullable enum names `null` among its values: OpenAPI 3.0 validators check `enum` apart.
  @ApiProperty({
    enum: ['account', null],
    nullable: true,
    description: '`account` for the default endpoint, null for one made in the dashboard',
  })
  @IsOptional()
  @IsIn(['account'])
  managed_by!: 'account' | null;

  @ApiProperty({ format: 'uri', example: 'https://shop.example.sn/hooks' })
  @IsString()
  url!: string;

  @ApiProperty({ type: [String], enum: WEBHOOK_SUBSCRIPTIONS, description: '`*` for all' })
  @IsArray()
  @IsIn(WEBHOOK_SUBSCRIPTIONS, { each: true })
  event_types!: string[];

  @ApiProperty({ enum: ['full'], description: 'Deliveries carry the whole object' })
  @IsIn(['full'])
  payload_policy!: 'full';

  @ApiProperty()
  @IsBoolean()
  active!: boolean;

  @ApiProperty({ format: 'date-time' })
  @Matches(ISO_MS)
  created_at!: string;
}

export class WebhookEndpointListReply extends ListReply(WebhookEndpointReply) {}

/** Spec 2.11 plus the fields a merchant needs to find the event and the endpoint. */
export class WebhookDeliveryReply {
  @ApiProperty({ example: 'whd_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  @Matches(idPattern('whd'))
  id!: string;

  @ApiProperty({ enum: ['webhook_delivery'] })
  @IsIn(['webhook_delivery'])
  object!: 'webhook_delivery';

  @ApiProperty({ description: 'The endpoint (`we_…`)', example: 'we_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  @Matches(idPattern('we'))
  endpoint!: string;

  @ApiProperty({ description: 'The event (`evt_…`)', example: 'evt_01JD8ZP5V6W7X8Y9Z0A1B2C3D4' })
  @Matches(idPattern('evt'))
  event!: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES })
  @IsIn(WEBHOOK_EVENT_TYPES)
  event_type!: WebhookEventType;

  @ApiProperty({
    enum: WEBHOOK_DELIVERY_STATUSES,
    description: '`failed` once every attempt failed (spec 6)',
  })
  @IsIn(WEBHOOK_DELIVERY_STATUSES)
  status!: WebhookDeliveryStatus;

  @ApiProperty({ type: 'integer', minimum: 0 })
  @IsInt()
  @Min(0)
  attempts!: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      "The receiver's HTTP status at the last attempt; null before one, or without an answer",
  })
  @IsOptional()
  @IsInt()
  last_status_code!: number | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Why the last attempt failed' })
  @IsOptional()
  @IsString()
  last_error!: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When the next attempt is due; null unless `pending`',
  })
  @IsOptional()
  @Matches(ISO_MS)
  next_attempt_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  @Matches(ISO_MS)
  created_at!: string;
}

export class WebhookDeliveryListReply extends ListReply(WebhookDeliveryReply) {}

class WebhookEventData {
  @IsObject()
  object!: Record<string, unknown>;
}

/**
 * Spec 2.10: the event exactly as it was delivered. Checked here as any event; the document
 * describes one schema per type instead (webhook-event-schemas.ts), `data.object` included.
 */
export class WebhookEventReply {
  @Matches(idPattern('evt'))
  id!: string;

  @IsIn(INTEGRATION_EVENT_TYPES)
  type!: IntegrationEventType;

  @IsBoolean()
  livemode!: boolean;

  @Matches(ISO_MS)
  created_at!: string;

  @IsObject()
  @ValidateNested()
  @Type(() => WebhookEventData)
  data!: WebhookEventData;
}

export class WebhookEventListReply extends ListReply(WebhookEventReply) {}
