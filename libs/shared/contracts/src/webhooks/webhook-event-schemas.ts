import { ApiProperty, ApiSchema, getSchemaPath, type SchemaObject } from '@nestjs/swagger';
import { INTEGRATION_EVENT_OBJECTS, type PublishedEventType } from '../integration-event';
import type { MessageClass } from '../shared/validate-message';
import type { WebhookEventType } from './webhooks.messages';

/**
 * The events merchants receive today, one line each: when it is sent, as the schema's
 * description. `data.object` is the class every consumer validates the event's object against
 * (`INTEGRATION_EVENT_OBJECTS`), so the document and the checks hold to one shape. The OpenAPI
 * document gets one schema per line, named after the type (`payment.succeeded` →
 * `PaymentSucceededEvent`).
 */
export const DOCUMENTED_WEBHOOK_EVENTS = {
  'payment.succeeded': 'The provider confirmed the payment; its net was added to `available`.',
  'payment.failed': 'Declined, or cancelled by the customer.',
  'payment.expired': 'Nobody paid within 30 minutes.',
  'payment.refunded':
    'A refund reached the customer. `data.object` is the payment, not the refund: ' +
    '`amount_refunded` has grown, and `status` is `refunded` once it reaches `amount`.',
  'payout.succeeded':
    "The money reached the recipient's wallet; amount and fee have left `pending`.",
  'payout.failed':
    'The provider refused the payout, or reversed it: amount and fee are back in `available`.',
  'invoice.created':
    'A period started and its invoice is `open`: send the customer its `hosted_invoice_url`.',
  'invoice.paid': 'The invoice was paid (`paid_at`); its net was added to `available`.',
  'invoice.overdue': 'The invoice passed `due_at` unpaid; it stays payable until `grace_ends_at`.',
  'subscription.past_due': 'An invoice of the subscription passed `due_at` unpaid.',
  'subscription.canceled':
    'Canceled: by the merchant, at the period end it was asked for, or when an invoice ' +
    'stayed unpaid past `grace_ends_at`.',
  'subscription.completed': 'The last of `billing_cycles` was paid.',
} satisfies Partial<Record<WebhookEventType & PublishedEventType, string>>;

type DocumentedType = keyof typeof DOCUMENTED_WEBHOOK_EVENTS;
const DOCUMENTED_TYPES = Object.keys(DOCUMENTED_WEBHOOK_EVENTS) as DocumentedType[];

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
function eventClass(type: DocumentedType): MessageClass<object> {
  const data = eventDataOf(INTEGRATION_EVENT_OBJECTS[type]);
  const when = DOCUMENTED_WEBHOOK_EVENTS[type];
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
export const WEBHOOK_EVENT_SCHEMAS: MessageClass<object>[] = DOCUMENTED_TYPES.map(eventClass);

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
