import { randomUUID } from 'node:crypto';
import type { ExpectedRevision, NewEvent, StreamCreation } from './event-store';

/** A batch as every adapter stores it: ids set, data and metadata already JSON. */
export interface PreparedEvent {
  id: string;
  type: string;
  data: unknown;
  dataJson: string;
  metadata: Record<string, unknown>;
  metadataJson: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a batch the same way for every adapter, so they refuse the same inputs: EventStoreDB
 * needs UUID ids and JSON bodies, Postgres stores jsonb, the in-memory store must not accept
 * what the real ones reject. Ids are lower-cased because Postgres' uuid type and EventStoreDB
 * both read them back that way.
 */
export function prepareEvents(streamName: string, events: readonly NewEvent[]): PreparedEvent[] {
  assertStreamName(streamName);
  if (events.length === 0) {
    throw new TypeError(`appendToStream(${streamName}): at least one event is needed`);
  }
  const seen = new Set<string>();
  return events.map((event, index) => {
    if (typeof event.type !== 'string' || event.type === '') {
      throw new TypeError(`Event ${index} of ${streamName} has no type`);
    }
    const id = (event.id ?? randomUUID()).toLowerCase();
    if (!UUID.test(id)) throw new TypeError(`Event id ${event.id} is not a UUID`);
    if (seen.has(id)) throw new TypeError(`Event id ${id} appears twice in one batch`);
    seen.add(id);
    const dataJson = JSON.stringify(event.data);
    if (dataJson === undefined) {
      throw new TypeError(`Event ${event.type} of ${streamName} has no JSON data`);
    }
    const metadata = event.metadata ?? {};
    return {
      id,
      type: event.type,
      data: event.data,
      dataJson,
      metadata,
      metadataJson: JSON.stringify(metadata),
    };
  });
}

/** A stream an append creates (`AppendOptions.creating`), its batch prepared. */
export interface PreparedCreation {
  streamName: string;
  events: PreparedEvent[];
}

/**
 * `AppendOptions.creating`, checked the same way by every adapter: an exact or `'no_stream'`
 * expectation on the append, each stream named once, each event id once in all the batches.
 */
export function prepareCreations(
  streamName: string,
  expected: ExpectedRevision,
  batch: readonly PreparedEvent[],
  creating: readonly StreamCreation[],
): PreparedCreation[] {
  if (creating.length === 0) return [];
  if (typeof expected !== 'bigint' && expected !== 'no_stream') {
    throw new TypeError(
      `appendToStream(${streamName}): streams are created only with an exact expected revision or 'no_stream'`,
    );
  }
  const names = new Set([streamName]);
  const ids = new Set(batch.map((event) => event.id));
  return creating.map((creation) => {
    if (names.has(creation.streamName)) {
      throw new TypeError(`appendToStream(${streamName}): ${creation.streamName} is written twice`);
    }
    names.add(creation.streamName);
    const events = prepareEvents(creation.streamName, creation.events);
    for (const { id } of events) {
      if (ids.has(id)) throw new TypeError(`Event id ${id} appears twice in one batch`);
      ids.add(id);
    }
    return { streamName: creation.streamName, events };
  });
}

export function assertStreamName(streamName: string): void {
  if (typeof streamName !== 'string' || streamName === '' || streamName.startsWith('$')) {
    throw new TypeError(
      `Invalid stream name "${String(streamName)}" (empty, or a $ system stream)`,
    );
  }
}

export const matchesPrefixes = (streamName: string, prefixes: readonly string[] | undefined) =>
  prefixes === undefined || prefixes.some((prefix) => streamName.startsWith(prefix));

/**
 * What an append's wake-up names of its stream: the name up to its first '-' (`payout-`), or the
 * whole name when it has none.
 */
export function categoryOf(streamName: string): string {
  const dash = streamName.indexOf('-');
  return dash === -1 ? streamName : streamName.slice(0, dash + 1);
}

/**
 * Whether a stream of this category may match the prefixes: never false when one does (a stream
 * and a prefix it matches both start with the category, or the prefix is shorter), sometimes true
 * when none does (`payout-` for the prefix `payout-po_1`), which only costs a wake-up.
 */
export const mayMatchPrefixes = (category: string, prefixes: readonly string[] | undefined) =>
  prefixes === undefined ||
  prefixes.some((prefix) => prefix.startsWith(category) || category.startsWith(prefix));

/** maxCount as every adapter reads it: absent means no limit, negative or fractional is a bug. */
export function assertMaxCount(maxCount: number | undefined): void {
  if (maxCount !== undefined && !(Number.isInteger(maxCount) && maxCount >= 0)) {
    throw new TypeError(`maxCount must be a non-negative integer, got ${maxCount}`);
  }
}
