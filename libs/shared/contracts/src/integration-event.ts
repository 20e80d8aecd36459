import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsString,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';
import { DomainError, validationError } from '@xaalis/kernel';
import { AccountObject } from './identity/account.object';
import { PaymentReply } from './payments/payments.replies';
import { InvoiceReply, SubscriptionReply } from './billing/subscriptions.replies';
import { PayoutReply } from './payouts/agent-wallets.replies';
import { ISO_MS, idPattern } from './shared/formats';
import {
  INTEGRATION_EVENT_TYPES,
  type IntegrationEventType,
} from './shared/integration-event-types';
import { validateMessage, type MessageClass } from './shared/validate-message';

/**
 * What `data.object` is, per event type: one class, validated by every consumer and documented
 * for merchants (webhook-event-schemas.ts) from the same line. For payments, what
 * `GET /v1/payments/{id}` returns. A context adds its line here when it starts publishing a type:
 * until then the type has no producer, and its object is only checked to be an object.
 */
export const INTEGRATION_EVENT_OBJECTS = {
  'payment.succeeded': PaymentReply,
  'payment.failed': PaymentReply,
  'payment.expired': PaymentReply,
  'payment.refunded': PaymentReply,
  'payout.succeeded': PayoutReply,
  'payout.failed': PayoutReply,
  'invoice.created': InvoiceReply,
  'invoice.paid': InvoiceReply,
  'invoice.overdue': InvoiceReply,
  'subscription.past_due': SubscriptionReply,
  'subscription.canceled': SubscriptionReply,
  'subscription.completed': SubscriptionReply,
  'account.updated': AccountObject,
} satisfies Partial<Record<IntegrationEventType, MessageClass<object>>>;

/** The event types some context publishes, each with its object class. */
export type PublishedEventType = keyof typeof INTEGRATION_EVENT_OBJECTS;

/**
 * `data.object` of one type's events; for a set of types, the union of theirs. A type nobody
 * publishes yet has no class: its object is any JSON object.
 */
export type EventObject<EventType extends IntegrationEventType> =
  EventType extends PublishedEventType
    ? InstanceType<(typeof INTEGRATION_EVENT_OBJECTS)[EventType]>
    : Record<string, unknown>;

/** Where the fact was recorded: consumers order one stream's events by `revision`. */
export class EventSource {
  @IsString()
  @IsNotEmpty()
  stream!: string;

  @IsInt()
  @Min(0)
  revision!: number;
}

export class EventData<EventType extends IntegrationEventType = IntegrationEventType> {
  /** Checked here only as an object: `validateIntegrationEvent` checks it against its type's class. */
  @IsObject()
  object!: EventObject<EventType>;
}

/**
 * The envelope of every integration event on the bus. The webhook payload (spec 2.10) is this
 * minus `merchant_id` and `source`. `id` is derived from the recorded event, so a re-published
 * event keeps its id and consumers deduplicate on it.
 *
 * `validateMessage(IntegrationEvent, …)` checks the envelope alone (what the bus and the
 * forwarder need); a consumer that reads `data.object` takes it through `validateIntegrationEvent`.
 */
export class IntegrationEvent<EventType extends IntegrationEventType = IntegrationEventType> {
  @Matches(idPattern('evt'), { message: 'id must be an event id (evt_…)' })
  id!: string;

  @IsIn(INTEGRATION_EVENT_TYPES)
  type!: EventType;

  @Matches(idPattern('mer'), { message: 'merchant_id must be a merchant id (mer_…)' })
  merchant_id!: string;

  @IsBoolean()
  livemode!: boolean;

  @IsISO8601({ strict: true })
  @Matches(ISO_MS, { message: 'created_at must be ISO 8601 UTC with milliseconds' })
  created_at!: string;

  @IsObject()
  @ValidateNested()
  @Type(() => EventSource)
  source!: EventSource;

  @IsObject()
  @ValidateNested()
  @Type(() => EventData)
  data!: EventData<EventType>;
}

/** One event of any of `EventType`, told apart by `type`: `switch (event.type)` narrows `data.object`. */
export type IntegrationEventOf<EventType extends IntegrationEventType = IntegrationEventType> =
  EventType extends IntegrationEventType ? IntegrationEvent<EventType> : never;

/**
 * A consumer's check of an event: the envelope, then `data.object` against its type's class
 * (fields named from the event's root: `data.object.amount`), unknown fields stripped as
 * everywhere (validate-message.ts). With `types`, an event of another type is refused too: a
 * handler of `payment.succeeded` gets `data.object` as a PaymentReply, no field checked by hand.
 */
export function validateIntegrationEvent<EventType extends IntegrationEventType>(
  payload: unknown,
  ...types: EventType[]
): IntegrationEventOf<EventType> {
  const event = validateMessage(IntegrationEvent, payload);
  if (types.length > 0 && !(types as IntegrationEventType[]).includes(event.type)) {
    throw validationError(
      [{ field: 'type', issue: `must be one of: ${types.join(', ')}` }],
      `${event.type} ${event.id} is not an event this consumer takes.`,
    );
  }
  const objectClass = objectClassOf(event.type);
  if (objectClass) {
    try {
      // Its type's class, so the union of every type's object holds it.
      event.data.object = validateMessage(
        objectClass,
        event.data.object,
        'data.object',
      ) as EventObject<IntegrationEventType>;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const what = `${event.type} ${event.id}: data.object is not a valid ${objectClass.name}.`;
      throw new DomainError('validation_error', what, error.details);
    }
  }
  return event as IntegrationEventOf<EventType>;
}

function objectClassOf(type: IntegrationEventType): MessageClass<object> | undefined {
  return type in INTEGRATION_EVENT_OBJECTS
    ? INTEGRATION_EVENT_OBJECTS[type as PublishedEventType]
    : undefined;
}
