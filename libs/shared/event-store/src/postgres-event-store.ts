import type { Pool } from 'pg';
import { StatementBatcher } from '@xaalis/batching';
import { foldFacts } from './aggregate-stream';
import {
  ConcurrencyError,
  type AggregateStreamOptions,
  type AggregateStreamResult,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type NewEvent,
  type ReadAllOptions,
  type ReadAllPage,
  type ReadStreamResult,
  type RecordedEvent,
} from './event-store';
import {
  appendSettled,
  insertAppends,
  insertOne,
  MAX_APPENDS_PER_STATEMENT,
  type StreamAppend,
} from './postgres-append';
import {
  MAX_READS_PER_STATEMENT,
  readStreams,
  toEvents,
  toFacts,
  type StreamRead,
  type StreamRows,
} from './postgres-stream-reads';
import { firstExisting, insertCreating } from './postgres-append-creating';
import { AppendWatch } from './postgres-append-watch';
import { readAll, readAllPage } from './postgres-read-all';
import {
  assertMaxCount,
  assertStreamName,
  categoryOf,
  prepareCreations,
  prepareEvents,
  type PreparedCreation,
} from './prepare-events';

export { type Queryable } from './postgres-append';
export { APPEND_CHANNEL } from './postgres-append-notification';
export { appendToStreamIn } from './postgres-append-in-transaction';
export {
  PEEK_PREFIXED_SQL,
  PEEK_SQL,
  READ_ALL_PREFIXED_SQL,
  READ_ALL_SQL,
} from './postgres-read-all';

/**
 * The Postgres event store, after emmett's (see the migrations
 * `prisma/migrations/20261122000100_event_store` and `20261122000110_event_store_lean`, which this
 * store needs and never applies itself). One append statement (postgres-append.ts; an append
 * that creates streams has its own, postgres-append-creating.ts) and one
 * stream-read statement (postgres-stream-reads.ts), each sent for one caller or for several.
 * Positions are `<transaction id>:<global position>`, zero-padded: they compare as strings.
 * When its subscribers read is `AppendWatch`'s (postgres-append-watch.ts).
 */

export class PostgresEventStore implements EventStore {
  /** Tells this process's subscribers, and other processes', when to read. */
  private readonly watch: AppendWatch;

  /**
   * Single-event appends made while one is on its way go as one statement (group commit): for
   * the bench line POST /v1/payments at 16 clients (new streams: grouped, a create cost a quarter
   * less CPU) and for the payment expiries of `BENCH_ONLY=jobs` (appends at an exact revision: CPU
   * per expiry 1.16 → 0.76 ms). An append that fails the statement (a lost race) sends the group
   * again append by append. Multi-event appends go at once.
   */
  private readonly singles: StatementBatcher<StreamAppend, AppendResult | undefined>;

  /**
   * aggregateStream's reads, made while one is on its way, go as one statement, for the bench
   * line GET /v1/payments/{id} at 16 clients (0.74× → 0.90× the raw server when grouped). Shared
   * by every fold, the lane suits short streams (a payment's). readStream is not grouped.
   */
  private readonly folds: StatementBatcher<StreamRead, StreamRows>;

  /** The append statement for one append. */
  private readonly insert: (append: StreamAppend) => Promise<AppendResult | undefined>;

  /** The pool stays the caller's: close() does not end it. */
  constructor(private readonly pool: Pool) {
    this.watch = new AppendWatch(pool);
    this.insert = insertOne(pool);
    this.singles = new StatementBatcher({
      alone: this.insert,
      together: (appends) => insertAppends(pool, appends),
      maxBatch: MAX_APPENDS_PER_STATEMENT,
    });
    this.folds = new StatementBatcher({
      alone: (read) => readStreams(pool, [read]).then((results) => results[0]!),
      together: (reads) => readStreams(pool, reads),
      maxBatch: MAX_READS_PER_STATEMENT,
    });
  }

  async appendToStream(
    streamName: string,
    events: NewEvent[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    const append: StreamAppend = {
      streamName,
      events: prepareEvents(streamName, events),
      expected: options.expectedRevision ?? 'any',
    };
    const creations = prepareCreations(
      streamName,
      append.expected,
      append.events,
      options.creating ?? [],
    );
    if (creations.length > 0) return this.appendCreating(append, creations);
    // A batch that failed is sent again append by append (StatementBatcher): safe, because an
    // append that finds its own events already written settles as an idempotent retry.
    const tried = append.events.length === 1 ? this.singles.submit(append) : this.insert(append);
    const result = await appendSettled(this.pool, append, this.insert, tried);
    this.watch.announce(result.position, categoryOf(streamName));
    return result;
  }

  /**
   * An append and the streams it creates, in one statement (`insertCreating`), settled as any
   * append is. When the append's expectation holds but nothing was written, a created stream
   * that exists is the conflict.
   */
  private async appendCreating(
    append: StreamAppend,
    creations: PreparedCreation[],
  ): Promise<AppendResult> {
    const insert = (again: StreamAppend) => insertCreating(this.pool, again, creations);
    const insertOrConflict = async (again: StreamAppend) => {
      const written = await insert(again);
      if (written !== undefined) return written;
      const existing = await firstExisting(
        this.pool,
        creations.map(({ streamName }) => streamName),
      );
      if (existing) throw new ConcurrencyError(existing.streamName, 'no_stream', existing.head);
      return undefined;
    };
    const result = await appendSettled(this.pool, append, insertOrConflict, insert(append));
    for (const category of new Set(
      [append, ...creations].map(({ streamName }) => categoryOf(streamName)),
    )) {
      this.watch.announce(result.position, category);
    }
    return result;
  }

  async readStream(
    streamName: string,
    options: { fromRevision?: bigint; maxCount?: number } = {},
  ): Promise<ReadStreamResult> {
    assertStreamName(streamName);
    assertMaxCount(options.maxCount);
    const { fromRevision = 0n, maxCount = null } = options;
    const [{ rows, currentRevision }] = (await readStreams(this.pool, [
      { streamName, fromRevision, maxCount },
    ])) as [StreamRows];
    return { events: toEvents(streamName, rows), currentRevision };
  }

  async aggregateStream<State, Event>(
    streamName: string,
    options: AggregateStreamOptions<State, Event>,
  ): Promise<AggregateStreamResult<State>> {
    assertStreamName(streamName);
    const { rows, currentRevision } = await this.folds.submit({
      streamName,
      fromRevision: 0n,
      maxCount: null,
    });
    return { state: foldFacts(toFacts(rows), options), currentRevision };
  }

  readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return readAll(this.pool, options);
  }

  readAllPage(options: ReadAllOptions = {}): Promise<ReadAllPage> {
    return readAllPage(this.pool, options);
  }

  /** See `AppendWatch.waitForAppend`. */
  waitForAppend(
    after: string | null,
    timeoutMs: number,
    signal?: AbortSignal,
    streamPrefixes?: readonly string[],
  ): Promise<void> {
    return this.watch.waitForAppend(after, timeoutMs, signal, streamPrefixes);
  }

  close(): Promise<void> {
    return this.watch.close();
  }
}
