import {
  evolve,
  exists,
  findInvoice,
  initialState,
  integrationEventTypeOf,
  invoiceView,
  subscriptionView,
  type BillingLinks,
  type SubscriptionEvent,
  type SubscriptionState,
} from '@xaalis/billing-domain';
import { integrationEventId } from '@xaalis/bus';
import type { IntegrationEvent } from '@xaalis/contracts';
import type { EventStore, FoldCache, RecordedEvent } from '@xaalis/event-store';
import { fold, livemode } from '@xaalis/kernel';
import { asSubscriptionEvent, subscriptionEventOf } from './subscription-event-guards';

/**
 * For the event forwarder (and a test advance, which waits for what it caused): `data.object` is
 * the invoice or the subscription as `GET` showed it right after this event (its stream folded up
 * to the event), so a republish carries the same object and the same event id. When `cache` holds
 * the stream at exactly that revision (the command that appended the event was this process's,
 * and nothing came after), that is the state; otherwise the stream is read up to the event.
 */
export function billingIntegrationEvents(
  store: EventStore,
  links: BillingLinks,
  cache?: FoldCache<SubscriptionState>,
) {
  const stateAt = async (recorded: RecordedEvent): Promise<SubscriptionState> => {
    const cached = cache?.get(recorded.streamName);
    if (cached?.revision === recorded.revision) return cached.state;
    const { events } = await store.readStream(recorded.streamName, {
      maxCount: Number(recorded.revision) + 1,
    });
    const history = events
      .map(subscriptionEventOf)
      .filter((e): e is SubscriptionEvent => e !== undefined);
    return fold(evolve, initialState(), history);
  };
  return async (recorded: RecordedEvent): Promise<IntegrationEvent[]> => {
    const event = asSubscriptionEvent(recorded);
    const type = event && integrationEventTypeOf(event);
    if (!event || !type) return [];
    const subscription = await stateAt(recorded);
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
