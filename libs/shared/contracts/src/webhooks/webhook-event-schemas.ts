import { ApiProperty, ApiSchema, getSchemaPath, type SchemaObject } from '@nestjs/swagger';
import { PaymentReply } from './payments.replies';
import type { MessageClass } from './validate-message';
import type { WebhookEventType } from './webhooks.messages';

interface DocumentedEvent {
  /** What `data.object` is: for payment and payout events, what their `GET` returns (spec 6). */
  object: MessageClass<object>;
  /** When it is sent, as the schema's description. */
  when: string;
}

/**
 * The events merchants receive today, one line each; the OpenAPI document gets one schema per
 * line, named after the type (`payment.succeeded` → `PaymentSucceededEvent`). Billing and payouts
 * add theirs here when they start sending them.
 */
export const DOCUMENTED_WEBHOOK_EVENTS = {
  'payment.succeeded': {
    object: PaymentReply,
    when: 'The provider confirmed the payment; its net was added to `available`.',
  },
  'payment.failed': { object: PaymentReply, when: 'Declined, or cancelled by the customer.' },
  'payment.expired': { object: PaymentReply, when: 'Nobody paid within 30 minutes.' },
  'payment.refunded': {
    object: PaymentReply,
    when:
      'A refund reached the customer. `data.object` is the payment, not the refund: ' +
      '`amount_refunded` has grown, and `status` is `refunded` once it reaches `amount`.',
  },
} satisfies Partial<Record<WebhookEventType, DocumentedEvent>>;

const DOCUMENTED_TYPES = Object.keys(
  DOCUMENTED_WEBHOOK_EVENTS,
) as (keyof typeof DOCUMENTED_WEBHOOK_EVENTS)[];

/** `payment.succeeded` → `PaymentSucceededEvent`, `subscription.past_due` → `SubscriptionPastDueEvent`. */
export function webhookEventSchemaName(type: string): string {
  const words = type.split(/[._]/).map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return `${words.join('')}Event`;
}

/** `{object}`, one class per kind of object (`PaymentEventData`), shared by its event types. */
const eventData = new Map<MessageClass<object>, MessageClass<object>>();

function eventDataOf(object: MessageClass<object>): MessageClass<object> {
  const known = eventData.get(object);
  if (known) return known;
  @ApiSchema({ name: `${object.name.replace(/Reply$/, '')}EventData` })
  class EventData {
    @ApiProperty({ type: () => object })
    object!: object;
  }
  eventData.set(object, EventData);
  return EventData;
}

/** The spec 2.10 payload of one event type, as its deliveries' bodies carry it. */
function eventClass(type: string, { object, when }: DocumentedEvent): MessageClass<object> {
  const data = eventDataOf(object);
  @ApiSchema({ name: webhookEventSchemaName(type), description: when })
  class WebhookEvent {
    @ApiProperty({
      description: 'Also the `Xaalis-Event-Id` header; deduplicate on it',
      example: 'evt_01JD8ZP5V6W7X8Y9Z0A1B2C3D4',
    })
    id!: string;

    @ApiProperty({ enum: [type] })
    type!: string;

    @ApiProperty({ description: 'Test and live events go to the same URL' })
    livemode!: boolean;

    @ApiProperty({ format: 'date-time' })
    created_at!: string;

    @ApiProperty({ type: () => data })
    data!: object;
  }
  return WebhookEvent;
}

/** For `@ApiExtraModels`: one documented class per line of `DOCUMENTED_WEBHOOK_EVENTS`. */
export const WEBHOOK_EVENT_SCHEMAS: MessageClass<object>[] = DOCUMENTED_TYPES.map((type) =>
  eventClass(type, DOCUMENTED_WEBHOOK_EVENTS[type]),
);

/** Any one of them, told apart by `type`: an event as `GET /v1/events/{id}` returns it. */
export const ANY_WEBHOOK_EVENT: SchemaObject = {
  oneOf: DOCUMENTED_TYPES.map((type) => ({ $ref: getSchemaPath(webhookEventSchemaName(type)) })),
  discriminator: {
    propertyName: 'type',
    mapping: Object.fromEntries(
      DOCUMENTED_TYPES.map((type) => [type, getSchemaPath(webhookEventSchemaName(type))]),
    ),
  },
};
