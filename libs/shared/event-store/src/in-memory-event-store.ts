import { aggregateByReading } from './aggregate-stream';
import {
  ConcurrencyError,
  DuplicateEventIdError,
  type AggregateStreamOptions,
  type AggregateStreamResult,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadAllPage,
  type ReadStreamResult,
  type RecordedEvent,
} from './event-store';
import {
  assertMaxCount,
  assertStreamName,
  matchesPrefixes,
  prepareCreations,
  prepareEvents,
  type PreparedEvent,
} from './prepare-events';

/** What is kept per event: data stays JSON so every read hands out a fresh copy. */
interface StoredEvent {
  id: string;
  streamName: string;
  type: string;
  dataJson: string;
  metadataJson: string;
  revision: bigint;
  position: string;
  createdAt: Date;
}

const formatPosition = (sequence: number) => String(sequence).padStart(20, '0');

/**
 * The event store for unit tests, with the semantics of the real ones (same contract suite):
 * expected revisions, idempotent retries by event id, globally unique ids, JSON round trips.
 * An append runs without awaiting anything, so concurrent appenders are serialised by the event
 * loop and exactly one of them wins.
 */
export class InMemoryEventStore implements EventStore {
  private readonly all: StoredEvent[] = [];
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly byId = new Map<string, StoredEvent>();
  /** Each wakes its waiter for an append to this stream ('' on close: every waiter). */
  private readonly waiters = new Set<(streamName: string) => void>();

  async appendToStream(
    streamName: string,
    events: NewEvent[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    const batch = prepareEvents(streamName, events);
    const expected = options.expectedRevision ?? 'any';
    const creations = prepareCreations(streamName, expected, batch, options.creating ?? []);
    const stream = this.streams.get(streamName) ?? [];
    const current = stream.length === 0 ? undefined : BigInt(stream.length - 1);

    // A retried append was written with the streams it created.
    const retried = findRetriedAppend(stream, expected, batch);
    if (retried === 'conflict') throw new ConcurrencyError(streamName, expected, current);
    if (retried !== undefined) return retried;

    if (!revisionMatches(expected, current)) {
      throw new ConcurrencyError(streamName, expected, current);
    }
    for (const creation of creations) {
      const existing = this.streams.get(creation.streamName);
      if (existing) {
        throw new ConcurrencyError(creation.streamName, 'no_stream', BigInt(existing.length - 1));
      }
    }
    const taken = [batch, ...creations.map((creation) => creation.events)]
      .flat()
      .find((event) => this.byId.has(event.id));
    if (taken)
      throw new DuplicateEventIdError(streamName, `Key (message_id)=(${taken.id}) already exists.`);

    // The created streams first, as in Postgres: the append's last event is the last position.
    const createdAt = new Date();
    for (const creation of creations) this.write(creation.streamName, creation.events, createdAt);
    const last = this.write(streamName, batch, createdAt);
    return { nextExpectedRevision: last.revision, position: last.position };
  }

  /** Writes a checked batch at the end of its stream and wakes its waiters: its last event. */
  private write(streamName: string, batch: readonly PreparedEvent[], createdAt: Date): StoredEvent {
    const stream = this.streams.get(streamName) ?? [];
    for (const event of batch) {
      const stored: StoredEvent = {
        id: event.id,
        streamName,
        type: event.type,
        dataJson: event.dataJson,
        metadataJson: event.metadataJson,
        revision: BigInt(stream.length),
        position: formatPosition(this.all.length + 1),
        createdAt,
      };
      stream.push(stored);
      this.all.push(stored);
      this.byId.set(stored.id, stored);
    }
    this.streams.set(streamName, stream);
    this.wakeWaiters(streamName);
    return stream[stream.length - 1]!;
  }

  async readStream(
    streamName: string,
    options: { fromRevision?: bigint; maxCount?: number } = {},
  ): Promise<ReadStreamResult> {
    assertStreamName(streamName);
    assertMaxCount(options.maxCount);
    const stream = this.streams.get(streamName);
    if (!stream) return { events: [], currentRevision: undefined };
    const from = Number(options.fromRevision ?? 0n);
    const to = options.maxCount === undefined ? undefined : from + options.maxCount;
    return {
      events: stream.slice(from, to).map(toRecorded),
      currentRevision: BigInt(stream.length - 1),
    };
  }

  aggregateStream<State, Event>(
    streamName: string,
    options: AggregateStreamOptions<State, Event>,
  ): Promise<AggregateStreamResult<State>> {
    return aggregateByReading(this, streamName, options);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return (await this.readAllPage(options)).events;
  }

  async readAllPage(options: ReadAllOptions = {}): Promise<ReadAllPage> {
    assertMaxCount(options.maxCount);
    const after = options.after ?? null;
    const maxCount = options.maxCount ?? Infinity;
    const events: RecordedEvent[] = [];
    let position = after;
    for (const event of this.all) {
      if (events.length >= maxCount) break;
      if (after !== null && event.position <= after) continue;
      position = event.position;
      if (matchesPrefixes(event.streamName, options.streamPrefixes)) events.push(toRecorded(event));
    }
    return { events, position };
  }

  waitForAppend(
    after: string | null,
    timeoutMs: number,
    signal?: AbortSignal,
    streamPrefixes?: readonly string[],
  ): Promise<void> {
    if (signal?.aborted || this.hasAfter(after, streamPrefixes)) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (streamName: string) => {
        if (streamName === '' || matchesPrefixes(streamName, streamPrefixes)) finish();
      };
      const finish = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', finish);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(finish, timeoutMs);
      signal?.addEventListener('abort', finish, { once: true });
      this.waiters.add(wake);
    });
  }

  async close(): Promise<void> {
    this.wakeWaiters('');
  }

  private wakeWaiters(streamName: string): void {
    for (const wake of [...this.waiters]) wake(streamName);
  }

  /** Whether an event of these streams comes after `after` (the newest are looked at first). */
  private hasAfter(after: string | null, streamPrefixes: readonly string[] | undefined): boolean {
    for (let index = this.all.length - 1; index >= 0; index--) {
      const event = this.all[index]!;
      if (after !== null && event.position <= after) return false;
      if (matchesPrefixes(event.streamName, streamPrefixes)) return true;
    }
    return false;
  }
}

function revisionMatches(expected: ExpectedRevision, current: bigint | undefined): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return current === undefined;
    case 'stream_exists':
      return current !== undefined;
    default:
      return current === expected;
  }
}

/**
 * EventStoreDB's retry rule, as the Postgres store settles it (postgres-append.ts): the batch is a
 * retry when its first id is in the stream, the following ids follow it in order, and the
 * expected revision is the one the original append had. A batch that only partly matches is a
 * conflict.
 */
function findRetriedAppend(
  stream: readonly StoredEvent[],
  expected: ExpectedRevision,
  batch: readonly PreparedEvent[],
): AppendResult | 'conflict' | undefined {
  const first = stream.findIndex((event) => event.id === batch[0]!.id);
  if (first === -1) return undefined;
  const allMatch = batch.every((event, offset) => stream[first + offset]?.id === event.id);
  const expectedMatches =
    expected === 'any' ||
    expected === 'stream_exists' ||
    (expected === 'no_stream' && first === 0) ||
    (typeof expected === 'bigint' && expected + 1n === BigInt(first));
  if (!allMatch || !expectedMatches) return 'conflict';
  const last = stream[first + batch.length - 1]!;
  return { nextExpectedRevision: last.revision, position: last.position };
}

const toRecorded = (event: StoredEvent): RecordedEvent => ({
  id: event.id,
  streamName: event.streamName,
  type: event.type,
  data: JSON.parse(event.dataJson) as unknown,
  metadata: JSON.parse(event.metadataJson) as Record<string, unknown>,
  revision: event.revision,
  position: event.position,
  createdAt: new Date(event.createdAt),
});
