import { integrationEventId } from '@xaalis/bus';
import type { IntegrationEvent } from '@xaalis/contracts';
import type { EventStore, RecordedEvent } from '@xaalis/event-store';
import { assertNever, fold, livemode } from '@xaalis/kernel';
import {
  evolvePayout,
  initialPayoutState,
  payoutExists,
  toPayoutObject,
  type PayoutEvent,
} from '@xaalis/payouts-domain';
import { asPayoutEvent, payoutEventOf } from './payout-event-guards';

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
export function payoutIntegrationEvents(store: EventStore) {
  return async (recorded: RecordedEvent): Promise<IntegrationEvent<PayoutEventType>[]> => {
    const event = asPayoutEvent(recorded);
    const type = event && payoutEventType(event);
    if (!type) return [];
    const { events } = await store.readStream(recorded.streamName, {
      maxCount: Number(recorded.revision) + 1,
    });
    const history = events.map(payoutEventOf).filter((e): e is PayoutEvent => e !== undefined);
    const payout = fold(evolvePayout, initialPayoutState(), history);
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
