import {
  BACKWARDS,
  END,
  ErrorType,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  excludeSystemEvents,
  isCommandError,
  jsonEvent,
  type AllStreamResolvedEvent,
  type JSONType,
  type Position,
  type ReadPosition,
} from '@eventstore/db-client';
import {
  type AggregateStreamOptions,
  type AggregateStreamResult,
  ConcurrencyError,
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
import { aggregateByReading } from './aggregate-stream';
import {
  formatPosition,
  isStreamNotFound,
  isSystemEvent,
  parsePosition,
  toEsdbExpectedRevision,
  toRecorded,
} from './eventstoredb-mapping';
import {
  assertMaxCount,
  assertStreamName,
  matchesPrefixes,
  prepareCreations,
  prepareEvents,
  type PreparedEvent,
} from './prepare-events';

export interface EventStoreDbEventStoreOptions {
  /** Dispose of the client in close(). Default false: the caller keeps it. */
  ownsClient?: boolean;
  /** Events per readAll page while filtering. Default 500. */
  readAllPageSize?: number;
}

/**
 * The EventStoreDB adapter (client v6, gRPC). EventStoreDB does concurrency, idempotent retries
 * and global order natively; this maps them onto the port.
 *
 * Position: `<commit>/<prepare>` of the transaction log, each zero-padded to 20 digits. An append
 * costs one extra read, to return its last event's position exactly.
 * readAll skips system events (`$…` types and streams). The v6 client takes a server-side filter
 * only on subscriptions, not on reads, so readAll filters stream prefixes as it pages.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly pageSize: number;

  /** For `EVENTSTORE_URL` (`esdb://…`); the store owns that client. */
  static connect(connectionString: string): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString), {
      ownsClient: true,
    });
  }

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly options: EventStoreDbEventStoreOptions = {},
  ) {
    this.pageSize = options.readAllPageSize ?? 500;
  }

  async appendToStream(
    streamName: string,
    events: NewEvent[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    const batch = prepareEvents(streamName, events);
    const expected = options.expectedRevision ?? 'any';
    const creations = prepareCreations(streamName, expected, batch, options.creating ?? []);
    const appended = await this.append(streamName, batch, expected);
    // No transaction across streams here: the created streams go just after (a crash between
    // leaves them to the caller, see AppendOptions.creating). A retry re-appends their same ids,
    // which EventStoreDB takes as the idempotent retry it is.
    let position = appended.position;
    for (const creation of creations) {
      ({ position } = await this.append(creation.streamName, creation.events, 'no_stream'));
    }
    return { nextExpectedRevision: appended.nextExpectedRevision, position };
  }

  private async append(
    streamName: string,
    batch: readonly PreparedEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    try {
      const result = await this.client.appendToStream(
        streamName,
        batch.map((event) =>
          jsonEvent({
            id: event.id,
            type: event.type,
            data: event.data as JSONType,
            metadata: event.metadata,
          }),
        ),
        { expectedRevision: toEsdbExpectedRevision(expected) },
      );
      // The append's own position is the write's log position, not necessarily the last event's
      // readAll position (and an idempotent retry gets none), while the port promises the last
      // event's: callers wait for a projection to reach it. One read of that event settles it.
      return {
        nextExpectedRevision: result.nextExpectedRevision,
        position: await this.positionOf(streamName, result.nextExpectedRevision),
      };
    } catch (error) {
      if (
        error instanceof Error &&
        isCommandError(error) &&
        error.type === ErrorType.WRONG_EXPECTED_VERSION
      ) {
        const actual = error.actualVersion;
        throw new ConcurrencyError(streamName, expected, actual === NO_STREAM ? undefined : actual);
      }
      throw error;
    }
  }

  async readStream(
    streamName: string,
    options: { fromRevision?: bigint; maxCount?: number } = {},
  ): Promise<ReadStreamResult> {
    assertStreamName(streamName);
    assertMaxCount(options.maxCount);
    const events: RecordedEvent[] = [];
    if (options.maxCount !== 0) {
      try {
        const read = this.client.readStream(streamName, {
          direction: FORWARDS,
          fromRevision: options.fromRevision ?? START,
          maxCount: options.maxCount ?? Number.MAX_SAFE_INTEGER,
        });
        for await (const resolved of read) {
          if (resolved.event) events.push(toRecorded(resolved.event));
        }
      } catch (error) {
        if (isStreamNotFound(error)) return { events: [], currentRevision: undefined };
        throw error;
      }
    }
    // A read to the end already knows the current revision; a partial or empty one asks.
    const last = events[events.length - 1];
    const currentRevision =
      options.maxCount === undefined && last !== undefined
        ? last.revision
        : await this.currentRevision(streamName);
    return { events, currentRevision };
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
    const maxCount = options.maxCount ?? Infinity;
    const result: RecordedEvent[] = [];
    let seen = options.after ?? null;
    let from: ReadPosition = seen === null ? START : parsePosition(seen);
    while (result.length < maxCount) {
      // Collect the page before filtering: leaving a read mid-way would leave its gRPC call open.
      const page: AllStreamResolvedEvent[] = [];
      for await (const resolved of this.client.readAll({
        direction: FORWARDS,
        fromPosition: from,
        maxCount: this.pageSize,
      })) {
        page.push(resolved);
      }
      let lastPosition: Position | undefined;
      for (const { event } of page) {
        if (!event) continue;
        lastPosition = event.position;
        const position = formatPosition(event.position);
        // fromPosition includes the event at that position; `after` does not.
        if (seen !== null && position <= seen) continue;
        seen = position;
        if (isSystemEvent(event) || !matchesPrefixes(event.streamId, options.streamPrefixes))
          continue;
        result.push(toRecorded(event));
        if (result.length >= maxCount) break;
      }
      if (page.length < this.pageSize || lastPosition === undefined) break;
      from = lastPosition;
    }
    return { events: result, position: seen };
  }

  /** A subscription to $all from `after`, ended by the first user event of the streams past it. */
  waitForAppend(
    after: string | null,
    timeoutMs: number,
    signal?: AbortSignal,
    streamPrefixes?: readonly string[],
  ): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const subscription = this.client.subscribeToAll({
        fromPosition: after === null ? START : parsePosition(after),
        filter: excludeSystemEvents(),
      });
      let settled = false;
      const finish = () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', finish);
        subscription.unsubscribe().catch(() => undefined);
        resolve();
      };
      subscription.on('data', (resolved: AllStreamResolvedEvent) => {
        const event = resolved.event;
        if (
          event &&
          !isSystemEvent(event) &&
          matchesPrefixes(event.streamId, streamPrefixes) &&
          (after === null || formatPosition(event.position) > after)
        )
          finish();
      });
      // Stays attached after finish: a cancelled subscription may still emit, and an 'error'
      // without a listener would crash the process. Waking early only costs the caller a read.
      subscription.on('error', finish);
      const timer = setTimeout(finish, timeoutMs);
      signal?.addEventListener('abort', finish, { once: true });
    });
  }

  async close(): Promise<void> {
    if (this.options.ownsClient) await this.client.dispose();
  }

  private async positionOf(streamName: string, revision: bigint): Promise<string> {
    for await (const resolved of this.client.readStream(streamName, {
      fromRevision: revision,
      maxCount: 1,
    })) {
      if (resolved.event) return toRecorded(resolved.event).position;
    }
    throw new Error(`${streamName}: event ${revision} just appended cannot be read back`);
  }

  private async currentRevision(streamName: string): Promise<bigint | undefined> {
    try {
      for await (const resolved of this.client.readStream(streamName, {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: 1,
      })) {
        if (resolved.event) return resolved.event.revision;
      }
      return undefined;
    } catch (error) {
      if (isStreamNotFound(error)) return undefined;
      throw error;
    }
  }
}
