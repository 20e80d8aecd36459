import type { RecordedEvent } from '@xaalis/event-store';
import { MERCHANT_EVENT_TYPES, type MerchantEvent } from '@xaalis/identity-domain';

/**
 * Narrows a stored event to the aggregate's union. An unknown type (written by a newer version)
 * is left alone rather than crashing the reader.
 */
export function asMerchantEvent(
  event: Pick<RecordedEvent, 'type' | 'data'>,
): MerchantEvent | undefined {
  return (MERCHANT_EVENT_TYPES as readonly string[]).includes(event.type)
    ? ({ type: event.type, data: event.data } as MerchantEvent)
    : undefined;
}
