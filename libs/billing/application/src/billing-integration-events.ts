import {
  exists,
  findInvoice,
  integrationEventTypeOf,
  invoiceView,
  subscriptionView,
  type BillingLinks,
  type SubscriptionState,
} from '@xaalis/billing-domain';
import { integrationEventId } from '@xaalis/bus';
import type { IntegrationEvent } from '@xaalis/contracts';
import {
  foldStreamTo,
  type EventStore,
  type FoldCache,
  type RecordedEvent,
} from '@xaalis/event-store';
import { livemode } from '@xaalis/kernel';
import { asSubscriptionEvent, SUBSCRIPTION_FOLD } from './subscription-event-guards';

/**
 * For the event forwarder (and a test advance, which waits for what it caused): `data.object` is
 * the invoice or the subscription as `GET` showed it right after this event (its stream folded up
 * to the event, `foldStreamTo`), so a republish carries the same object and the same event id.
 */
export function billingIntegrationEvents(
  store: EventStore,
  links: BillingLinks,
  cache?: FoldCache<SubscriptionState>,
) {
  return async (recorded: RecordedEvent): Promise<IntegrationEvent[]> => {
    const event = asSubscriptionEvent(recorded);
    const type = event && integrationEventTypeOf(event);
    if (!event || !type) return [];
    const subscription = await foldStreamTo(store, recorded, SUBSCRIPTION_FOLD, cache);
    if (!exists(subscription)) return [];
    const invoiceId = 'invoiceId' in event.data ? event.data.invoiceId : undefined;
    const invoice = invoiceId === undefined ? undefined : findInvoice(subscription, invoiceId);
    const object = type.startsWith('invoice.')
      ? invoice && invoiceView(subscription, invoice, links)
      : subscriptionView(subscription, links);
    if (!object) return [];
    return [
      {
        id: integrationEventId(recorded),
        type,
        merchant_id: subscription.merchantId,
        livemode: livemode(subscription.mode),
        created_at: recorded.createdAt.toISOString(),
        source: { stream: recorded.streamName, revision: Number(recorded.revision) },
        data: { object: { ...object } },
      },
    ];
  };
}
