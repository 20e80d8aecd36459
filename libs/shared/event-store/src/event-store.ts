/**
 * The event store port. Three adapters (Postgres, EventStoreDB, in-memory) implement it and pass
 * one contract suite (`event-store.contract.ts`).
 *
 * Stream names are `<category>-<id>`; names starting with `$` are EventStoreDB's system streams
 * and are refused by every adapter.
 */

/** What the appender expects the stream's current revision to be. Revisions start at 0n. */
export type ExpectedRevision = bigint | 'no_stream' | 'stream_exists' | 'any';

export interface NewEvent<Type extends string = string, Data = unknown> {
  /**
   * A UUID (generated when absent). Re-appending a batch whose ids are already in the stream, in
   * the same order and with the same expected revision, is a no-op that succeeds (an idempotent
   * retry, as in EventStoreDB). Give ids when a caller may retry after an unknown outcome.
   */
  id?: string;
  type: Type;
  data: Data;
  metadata?: Record<string, unknown>;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> {
  id: string;
  streamName: string;
  type: Type;
  data: Data;
  metadata: Record<string, unknown>;
  /** Position in its stream, from 0n. */
  revision: bigint;
  /**
   * Checkpoint in the global order, as the store writes it. Pass it back as `after` to continue
   * from here. Fixed-width, so checkpoints of one store compare correctly as plain strings
   * (`a < b` means a comes first).
   */
  position: string;
  createdAt: Date;
}

export interface AppendResult {
  /** The stream's revision after the append: pass it as `expectedRevision` for the next one. */
  nextExpectedRevision: bigint;
  /** Global position of the last event written (of the streams it created too). */
  position: string;
}

/** A new stream whose first events follow from another stream's append (`AppendOptions`). */
export interface StreamCreation {
  streamName: string;
  events: NewEvent[];
}

export interface AppendOptions {
  /** Defaults to `'any'`. */
  expectedRevision?: ExpectedRevision;
  /**
   * New streams whose first events follow from this append (a payout's, from its wallet's
   * acceptance), written only if the append is, each expecting no stream. The expected revision
   * must then be exact or `'no_stream'`. A stream of them that exists fails the append with
   * ConcurrencyError, unless it holds these very events (an idempotent retry).
   *
   * The Postgres and in-memory stores write them in the append's own transaction. EventStoreDB
   * has no transaction across streams: it appends them just after, so a crash between leaves the
   * append without them, and a caller must be able to create them later from the append (as the
   * payouts context does from a wallet's `PayoutAccepted`).
   */
  creating?: StreamCreation[];
}

export interface ReadStreamResult<Type extends string = string, Data = unknown> {
  events: RecordedEvent<Type, Data>[];
  /** undefined when the stream does not exist. */
  currentRevision: bigint | undefined;
}

/** An event as a fold needs it: its type and data. */
export interface StoredFact {
  type: string;
  data: unknown;
}

export interface AggregateStreamOptions<State, Event> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  /** The fold's event for a stored one, or undefined to skip it (a type the fold does not know). */
  asEvent: (stored: StoredFact) => Event | undefined;
}

export interface AggregateStreamResult<State> {
  state: State;
  /** undefined when the stream does not exist (`state` is then the initial state). */
  currentRevision: bigint | undefined;
}

export interface ReadAllOptions {
  /** Exclusive: events after this checkpoint. null or absent: from the beginning. */
  after?: string | null;
  maxCount?: number;
  /** Only streams whose name starts with one of these (e.g. `merchant-`). */
  streamPrefixes?: string[];
}

/** A page of readAll, and where the next one starts. */
export interface ReadAllPage {
  events: RecordedEvent[];
  /**
   * The next page's `after`: the last event returned when the page is full (`maxCount`), else as
   * far as the read could see, past the other streams' events too. Never before the `after` read
   * from; null only when that was null and nothing was visible.
   */
  position: string | null;
}

export interface EventStore {
  /**
   * Appends a non-empty batch atomically, and the streams it creates (`creating`). A mismatch of
   * the expected revision throws ConcurrencyError (also when two appenders race: exactly one
   * wins).
   */
  appendToStream(
    streamName: string,
    events: NewEvent[],
    options?: AppendOptions,
  ): Promise<AppendResult>;
  readStream(
    streamName: string,
    options?: { fromRevision?: bigint; maxCount?: number },
  ): Promise<ReadStreamResult>;
  /**
   * Folds a whole stream into a state (after emmett's aggregateStream). What readStream would give
   * folded, but an adapter may read only what the fold needs (the Postgres store reads each event's
   * type and data, not its id, metadata, position and time): a payment read folds its stream on
   * every GET.
   */
  aggregateStream<State, Event>(
    streamName: string,
    options: AggregateStreamOptions<State, Event>,
  ): Promise<AggregateStreamResult<State>>;
  /**
   * Events of all streams in global order. A reader never skips an event committed late: an event
   * becomes visible only once every event ordered before it is visible too.
   */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /**
   * readAll for a reader of some streams: the page, and how far the store was scanned to make it.
   * Such a reader (a merchant projection, while payments are created by the thousand) moves past
   * the other streams' events without reading them, and its next wait starts at the head.
   */
  readAllPage(options?: ReadAllOptions): Promise<ReadAllPage>;
  /**
   * Resolves once an append may have happened after `after`, or after `timeoutMs`, whichever is
   * first (or at once if `signal` aborts). Lets subscriptions sleep without polling hard.
   * Resolves at once when readAll already has events after `after`; it never rejects (an early
   * wake-up is always allowed: the caller just reads again).
   *
   * A reader of some streams gives their `streamPrefixes`: appends to the others need not wake
   * it. A store sleeps through those it can tell apart (Postgres: this process's appends, and
   * other processes' by the streams their notification names) and wakes for the rest.
   */
  waitForAppend(
    after: string | null,
    timeoutMs: number,
    signal?: AbortSignal,
    streamPrefixes?: readonly string[],
  ): Promise<void>;
  /** Releases what the adapter opened itself (never a pool or client it was given). */
  close(): Promise<void>;
}

export class ConcurrencyError extends Error {
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | undefined,
  ) {
    super(
      `Stream ${streamName}: expected revision ${String(expected)}, found ${
        actual === undefined ? 'no stream' : String(actual)
      }`,
    );
    this.name = 'ConcurrencyError';
  }
}

/**
 * An event id of the batch is already stored, and not as an idempotent retry of this append (in
 * another stream, or at other revisions). Postgres and the in-memory store keep ids unique across
 * the whole store; EventStoreDB only within a stream, so it never raises this.
 */
export class DuplicateEventIdError extends Error {
  constructor(
    readonly streamName: string,
    detail: string,
  ) {
    super(`Stream ${streamName}: an event id of the batch is already stored (${detail})`);
    this.name = 'DuplicateEventIdError';
  }
}
