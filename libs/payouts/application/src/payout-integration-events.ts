import { integrationEventId } from '@xaalis/bus';
import type { IntegrationEvent } from '@xaalis/contracts';
import {
  foldStreamTo,
  type EventStore,
  type FoldCache,
  type RecordedEvent,
} from '@xaalis/event-store';
import { assertNever, livemode } from '@xaalis/kernel';
import {
  payoutExists,
  toPayoutObject,
  type PayoutEvent,
  type PayoutState,
} from '@xaalis/payouts-domain';
import { asPayoutEvent, PAYOUT_FOLD } from './payout-event-guards';

type PayoutEventType = 'payout.succeeded' | 'payout.failed';

/** The payout facts merchants hear about (spec 6): how each payout ended. */
export function payoutEventType(event: PayoutEvent): PayoutEventType | undefined {
  switch (event.type) {
    case 'PayoutSucceeded':
      return 'payout.succeeded';
    case 'PayoutFailed':
    case 'PayoutReversed':
      return 'payout.failed';
    case 'PayoutCreated':
    case 'PayoutProcessing':
    case 'PayoutProviderReferenceRecorded':
      return undefined;
    default:
      return assertNever(event);
  }
}

/**
 * For the event forwarder: `data.object` is the payout as `GET /v1/payouts/{id}` showed it right
 * after this event (its stream folded up to the event), so a republish carries the same object
 * and the same event id.
 */
export function payoutIntegrationEvents(store: EventStore, cache?: FoldCache<PayoutState>) {
  return async (recorded: RecordedEvent): Promise<IntegrationEvent<PayoutEventType>[]> => {
    const event = asPayoutEvent(recorded);
    const type = event && payoutEventType(event);
    if (!type) return [];
    const payout = await foldStreamTo(store, recorded, PAYOUT_FOLD, cache);
    if (!payoutExists(payout)) return [];
    return [
      {
        id: integrationEventId(recorded),
        type,
        merchant_id: payout.merchantId,
        livemode: livemode(payout.mode),
        created_at: recorded.createdAt.toISOString(),
        source: { stream: recorded.streamName, revision: Number(recorded.revision) },
        data: { object: toPayoutObject(payout) },
      },
    ];
  };
}
