/**
 * The event store port. Three adapters (Postgres, EventStoreDB, in-memory) implement it and pass
 * one contract suite (`event-store.contract.ts`).
 */

/** What the appender expects the stream's current revision to be. Revisions start at 0n. */
export type ExpectedRevision = bigint | 'no_stream' | 'stream_exists' | 'any';

export interface NewEvent<Type extends string = string, Data = unknown> {
  /** A UUID. Appending an event whose id is already in the stream is a no-op (idempotent retry). */
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
  /** Global position of the last event written. */
  position: string;
}

export interface ReadStreamResult<Type extends string = string, Data = unknown> {
  events: RecordedEvent<Type, Data>[];
  /** undefined when the stream does not exist. */
  currentRevision: bigint | undefined;
}

export interface ReadAllOptions {
  /** Exclusive: events after this checkpoint. null or absent: from the beginning. */
  after?: string | null;
  maxCount?: number;
  /** Only streams whose name starts with one of these (e.g. `merchant-`). */
  streamPrefixes?: string[];
}

export interface EventStore {
  appendToStream(
    streamName: string,
    events: NewEvent[],
    options?: { expectedRevision?: ExpectedRevision },
  ): Promise<AppendResult>;
  readStream(
    streamName: string,
    options?: { fromRevision?: bigint; maxCount?: number },
  ): Promise<ReadStreamResult>;
  /**
   * Events of all streams in global order. A reader never skips an event committed late: an event
   * becomes visible only once every event ordered before it is visible too.
   */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /**
   * Resolves once an append may have happened after `after`, or after `timeoutMs`, whichever is
   * first (or at once if `signal` aborts). Lets subscriptions sleep without polling hard.
   */
  waitForAppend(after: string | null, timeoutMs: number, signal?: AbortSignal): Promise<void>;
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
