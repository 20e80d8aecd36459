/**
 * Integration events: the facts one context publishes for the others (and for merchants'
 * webhooks, spec section 6). `account.updated` is internal: the webhooks app follows account
 * changes (the default endpoint) through it.
 */
export const INTEGRATION_EVENT_TYPES = [
  'payment.succeeded',
  'payment.failed',
  'payment.expired',
  'payment.refunded',
  'payout.succeeded',
  'payout.failed',
  'invoice.created',
  'invoice.paid',
  'invoice.overdue',
  'subscription.past_due',
  'subscription.canceled',
  'subscription.completed',
  'account.updated',
] as const;

export type IntegrationEventType = (typeof INTEGRATION_EVENT_TYPES)[number];

export type EventTopic<Type extends IntegrationEventType = IntegrationEventType> = `events.${Type}`;

/**
 * One topic per event type, so a consumer subscribes (`@EventPattern`) to exactly the types it
 * handles. The `events.` prefix keeps event topics apart from request patterns by construction.
 * Order across topics is not kept; consumers order by `source.revision` and dedupe on `id`.
 */
export const topicOf = <Type extends IntegrationEventType>(type: Type): EventTopic<Type> =>
  `events.${type}`;

export const EVENT_TOPICS = INTEGRATION_EVENT_TYPES.map(topicOf);

export const isIntegrationEventType = (value: unknown): value is IntegrationEventType =>
  typeof value === 'string' && (INTEGRATION_EVENT_TYPES as readonly string[]).includes(value);
