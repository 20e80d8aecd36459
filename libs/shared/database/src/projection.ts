import type { RecordedEvent } from '@xaalis/event-store';
import type { PrismaTx } from './prisma';

/**
 * A read model built from events. The runner calls `apply` inside the transaction that also
 * moves the projection's checkpoint, so an event is applied exactly once even across restarts
 * and several runners.
 */
export interface Projection {
  /** Also the checkpoint's key: renaming a projection rebuilds it from scratch. */
  name: string;
  /** Only events of streams starting with one of these (e.g. `merchant-`). */
  streamPrefixes: string[];
  apply(event: RecordedEvent, tx: PrismaTx): Promise<void>;
  /**
   * Optional: the runner's whole batch at once (in order), instead of `apply` per event, for a
   * projection whose writes cost less as a few set-based statements than as statements per event.
   * Must leave the same rows as `apply` would, event after event.
   */
  applyBatch?(events: RecordedEvent[], tx: PrismaTx): Promise<void>;
  /**
   * Empties the read model before a rebuild. Use DELETE, not TRUNCATE: TRUNCATE locks the table
   * against readers until the rebuild commits, DELETE lets them keep seeing the old rows.
   */
  reset(tx: PrismaTx): Promise<void>;
}
