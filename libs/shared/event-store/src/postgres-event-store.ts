import { Client, type ClientConfig, type Pool } from 'pg';
import { foldFacts } from './aggregate-stream';
import type {
  AggregateStreamOptions,
  AggregateStreamResult,
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadAllPage,
  ReadStreamResult,
  RecordedEvent,
} from './event-store';
import {
  appendAutocommit,
  appendInTransaction,
  POSITION_SQL,
  type Queryable,
} from './postgres-append';
import { FirstAppends } from './postgres-first-appends';
import { StreamReads } from './postgres-stream-reads';
import { assertMaxCount, assertStreamName, prepareEvents } from './prepare-events';

export { formatPosition, type Queryable } from './postgres-append';

/**
 * The Postgres event store, after emmett's (see the migrations
 * `prisma/migrations/20261122000100_event_store` and `20261122000110_event_store_lean`, which this
 * store needs and never applies itself).
 *
 * Position: `<transaction id>:<global position>`, each zero-padded to 20 digits, so checkpoints
 * compare as strings in the order readAll returns them.
 */

/** The NOTIFY channel appends are announced on; the payload is the append's position. */
export const APPEND_CHANNEL = 'es_appended';

/**
 * When waitForAppend sees committed events that readAll may not return yet (an older transaction
 * is still open, perhaps one that never touches the event store and so will never notify), it
 * looks again this often.
 */
const PENDING_POLL_MS = 50;
/**
 * At most one NOTIFY per this interval: each is a transaction of its own, and one per append
 * would cost a sequential writer a third of its rate. Other processes' subscribers hear of an
 * append up to this much later; this process's own are woken at once.
 */
const NOTIFY_INTERVAL_MS = 10;
/** Without a LISTEN connection it falls back to polling at this pace... */
const NO_LISTENER_POLL_MS = 500;
/** ...and tries to open one again after this long. */
const LISTENER_RETRY_MS = 5_000;

/**
 * An event as a stream read returns it (the caller gave the stream's name). The position is made
 * by the server: node-postgres decodes one text column for less than the two numbers it is made
 * of, and reads are the hottest queries there are.
 */
interface StreamEventRow {
  stream_position: string;
  message_id: string;
  message_type: string;
  message_data: unknown;
  message_metadata: Record<string, unknown>;
  position: string;
  created_at: Date;
}

/** A row of READ_STREAM_SQL: the stream's revision, and an event unless none is in the range. */
type StreamRangeRow = { current_revision: string } & (
  StreamEventRow | { [Column in keyof StreamEventRow]: null }
);

/** An event as readAll returns it: the same, with its stream's name. */
interface MessageRow extends StreamEventRow {
  stream_name: string;
}

const STREAM_EVENT_COLUMNS = `stream_position, message_id, message_type, message_data,
  message_metadata, ${POSITION_SQL} AS position, created_at`;

const MESSAGE_COLUMNS = `stream_name, ${STREAM_EVENT_COLUMNS}`;

// The usual read, from a revision to the end: one index range in order, and the last row's
// revision is the stream's, read in the same snapshot.
const READ_STREAM_TAIL_SQL = `SELECT ${STREAM_EVENT_COLUMNS} FROM es_messages
  WHERE stream_name = $1 AND stream_position >= $2
  ORDER BY stream_position`;

// A bounded read, or a range past the end: the revision comes from its own lookup, in the same
// statement so it is of the same snapshot. A stream exists when it has an event, and its revision
// is its last event's (see the lean migration).
const READ_STREAM_SQL = `SELECT s.current_revision, m.*
  FROM (SELECT max(stream_position) AS current_revision FROM es_messages WHERE stream_name = $1) s
  LEFT JOIN LATERAL (
    SELECT ${STREAM_EVENT_COLUMNS} FROM es_messages
     WHERE stream_name = $1 AND stream_position >= $2
     ORDER BY stream_position
     LIMIT $3
  ) m ON true
  WHERE s.current_revision IS NOT NULL
  ORDER BY m.stream_position`;

// The xmin guard: only rows of transactions older than every one still running, so a row that
// commits later can never sort before what a reader has already passed.
const READ_ALL_WHERE = `m.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
  AND (m.transaction_id, m.global_position) > ($1::xid8, $2::bigint)`;

export const READ_ALL_SQL = `SELECT ${MESSAGE_COLUMNS} FROM es_messages m
  WHERE ${READ_ALL_WHERE}
  ORDER BY m.transaction_id, m.global_position
  LIMIT $3`;

export const READ_ALL_PREFIXED_SQL = `SELECT ${MESSAGE_COLUMNS} FROM es_messages m
  WHERE ${READ_ALL_WHERE} AND m.stream_name ^@ ANY($4::text[])
  ORDER BY m.transaction_id, m.global_position
  LIMIT $3`;

// A page of a prefixed readAll, with `head`: the last row the xmin guard lets through, of any
// stream, in the same snapshot. A page that is not full has every matching row up to it. The
// head is a backward step of the global-order index; one row comes back even for an empty page.
export const READ_ALL_PAGE_PREFIXED_SQL = `SELECT
    (SELECT ${POSITION_SQL} FROM es_messages
      WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      ORDER BY transaction_id DESC, global_position DESC LIMIT 1) AS head,
    page.*
  FROM (SELECT) AS one
  LEFT JOIN LATERAL (${READ_ALL_PREFIXED_SQL}) AS page ON true`;

// readable: readAll would return something after the checkpoint now. pending: committed rows
// after it that the xmin guard still holds back. Each is the first such row in index order, not an
// EXISTS: a prepared statement gets a generic plan after five runs, and for an EXISTS that plan is
// a sequential scan of the whole table (it cannot know the checkpoint is near the end), while a
// first-row-in-order is an index lookup whatever the parameters.
const FIRST_AFTER = `ORDER BY m.transaction_id, m.global_position LIMIT 1`;
export const PEEK_SQL = `SELECT
  (SELECT m.global_position FROM es_messages m WHERE ${READ_ALL_WHERE} ${FIRST_AFTER})
    IS NOT NULL AS readable,
  (SELECT m.global_position FROM es_messages m
    WHERE m.transaction_id >= pg_snapshot_xmin(pg_current_snapshot())
      AND (m.transaction_id, m.global_position) > ($1::xid8, $2::bigint) ${FIRST_AFTER})
    IS NOT NULL AS pending`;

export class PostgresEventStore implements EventStore {
  private listener: Promise<Client> | undefined;
  private listenerRetryAt = 0;
  private readonly waiters = new Set<(position: string) => void>();
  private closed = false;
  /** Position still to announce, and the announcing loop while it runs. */
  private unannounced: string | undefined;
  private announcing: Promise<void> | undefined;
  private lastNotifiedAt = 0;
  /** The latest position this process appended (waitForAppend need not look for it). */
  private lastAnnounced: string | undefined;

  /** New streams' first events, written together (group commit). */
  private readonly firstAppends: FirstAppends;

  /** Whole streams read for a fold, the reads asked for meanwhile together. */
  private readonly streamReads: StreamReads;

  /** The pool stays the caller's: close() does not end it. */
  constructor(private readonly pool: Pool) {
    this.firstAppends = new FirstAppends(pool);
    this.streamReads = new StreamReads(pool);
  }

  async appendToStream(
    streamName: string,
    events: NewEvent[],
    options: { expectedRevision?: ExpectedRevision } = {},
  ): Promise<AppendResult> {
    const batch = prepareEvents(streamName, events);
    const expected = options.expectedRevision ?? 'any';
    const result =
      batch.length === 1 && expected === 'no_stream'
        ? await this.firstAppends.append(streamName, batch[0]!)
        : await appendAutocommit(this.pool, streamName, batch, expected);
    this.announce(result.position);
    return result;
  }

  async readStream(
    streamName: string,
    options: { fromRevision?: bigint; maxCount?: number } = {},
  ): Promise<ReadStreamResult> {
    assertStreamName(streamName);
    assertMaxCount(options.maxCount);
    const from = String(options.fromRevision ?? 0n);
    if (options.maxCount === undefined) {
      const { rows } = await this.pool.query<StreamEventRow>({
        name: 'es_read_stream_tail',
        text: READ_STREAM_TAIL_SQL,
        values: [streamName, from],
      });
      const last = rows.at(-1);
      if (last !== undefined) {
        return {
          events: rows.map((row) => toStreamEvent(streamName, row)),
          currentRevision: BigInt(last.stream_position),
        };
      }
      // Nothing from revision 0: no such stream. Past the end of one: its revision is needed.
      if (from === '0') return { events: [], currentRevision: undefined };
    }
    const { rows } = await this.pool.query<StreamRangeRow>({
      name: 'es_read_stream',
      text: READ_STREAM_SQL,
      values: [streamName, from, options.maxCount ?? null],
    });
    if (rows.length === 0) return { events: [], currentRevision: undefined };
    const events: RecordedEvent[] = [];
    for (const row of rows) {
      // A range holding no event: the stream's one row has none.
      if (row.stream_position !== null) events.push(toStreamEvent(streamName, row));
    }
    return { events, currentRevision: BigInt(rows[0]!.current_revision) };
  }

  async aggregateStream<State, Event>(
    streamName: string,
    options: AggregateStreamOptions<State, Event>,
  ): Promise<AggregateStreamResult<State>> {
    assertStreamName(streamName);
    const rows = await this.streamReads.read(streamName);
    const last = rows.at(-1);
    return {
      state: foldFacts(rows, options),
      // A stream exists when it has an event (see the lean migration).
      currentRevision: last === undefined ? undefined : BigInt(last.stream_position),
    };
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    assertMaxCount(options.maxCount);
    const [transactionId, globalPosition] = parsePosition(options.after ?? null);
    const values: unknown[] = [transactionId, globalPosition, options.maxCount ?? null];
    const prefixed = options.streamPrefixes !== undefined;
    if (prefixed) values.push(options.streamPrefixes);
    const { rows } = await this.pool.query<MessageRow>({
      name: prefixed ? 'es_read_all_prefixed' : 'es_read_all',
      text: prefixed ? READ_ALL_PREFIXED_SQL : READ_ALL_SQL,
      values,
    });
    return rows.map(toRecorded);
  }

  async readAllPage(options: ReadAllOptions = {}): Promise<ReadAllPage> {
    const after = options.after ?? null;
    if (options.streamPrefixes === undefined) {
      // Every visible row after `after` is read: a short page ends at the head.
      const events = await this.readAll(options);
      return { events, position: events.at(-1)?.position ?? after };
    }
    assertMaxCount(options.maxCount);
    // Nothing read is nothing scanned.
    if (options.maxCount === 0) return { events: [], position: after };
    const [transactionId, globalPosition] = parsePosition(after);
    const maxCount = options.maxCount ?? null;
    const { rows } = await this.pool.query<
      { head: string | null } & (MessageRow | { [Column in keyof MessageRow]: null })
    >({
      name: 'es_read_all_page_prefixed',
      text: READ_ALL_PAGE_PREFIXED_SQL,
      values: [transactionId, globalPosition, maxCount, options.streamPrefixes],
    });
    const events: RecordedEvent[] = [];
    for (const row of rows) if (row.position !== null) events.push(toRecorded(row));
    const full = maxCount !== null && events.length === maxCount;
    const reached = full ? events.at(-1)!.position : rows[0]!.head;
    return {
      events,
      position: after === null || (reached !== null && reached > after) ? reached : after,
    };
  }

  /**
   * LISTENs on a connection of its own (opened on first use, reopened after a failure) for the
   * NOTIFY that follows each append's commit. Before sleeping it looks at the table, so an append
   * that committed before the LISTEN, or before this call, is not slept through; and a missed
   * notification (a writer that died between commit and NOTIFY) costs at most `timeoutMs`.
   */
  waitForAppend(after: string | null, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted || this.closed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const [transactionId, globalPosition] = parsePosition(after); // a bad checkpoint rejects
      let settled = false;
      let poll: NodeJS.Timeout | undefined;
      const finish = () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearTimeout(poll);
        this.waiters.delete(onAppend);
        signal?.removeEventListener('abort', finish);
        resolve();
      };
      const onAppend = (position: string) => {
        if (after === null || position === '' || position > after) finish();
      };
      const look = async (listening: boolean) => {
        if (settled) return;
        try {
          const { rows } = await this.pool.query<{ readable: boolean; pending: boolean }>({
            name: 'es_peek',
            text: PEEK_SQL,
            values: [transactionId, globalPosition],
          });
          const { readable, pending } = rows[0]!;
          if (readable) return finish();
          if (settled || (!pending && listening)) return;
          poll = setTimeout(
            () => void look(listening),
            pending ? PENDING_POLL_MS : NO_LISTENER_POLL_MS,
          );
        } catch {
          // The caller's next read reports the failure; waking early costs one read.
          finish();
        }
      };
      const timer = setTimeout(finish, timeoutMs);
      signal?.addEventListener('abort', finish, { once: true });
      this.waiters.add(onAppend);
      // Under load the usual case: this process appended after `after` while the caller read, so
      // the look below would only find it again, one query per subscriber and round. (Its
      // commit came first; if an older transaction still hides it, the caller reads nothing and
      // waits again, as after any wake.)
      if (this.lastAnnounced !== undefined) onAppend(this.lastAnnounced);
      if (settled) return;
      this.listen().then(
        () => look(true),
        () => look(false),
      );
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.announcing;
    this.wakeWaiters('');
    const listener = this.listener;
    this.listener = undefined;
    if (listener) await listener.then((client) => client.end()).catch(() => undefined);
  }

  /**
   * NOTIFY after the commit, not inside the append's transaction: a notifying commit holds a
   * database-wide lock until its WAL is flushed, which serialises every concurrent appender
   * (measured: 8 writers lost about 3x throughput). Off the caller's path, and coalesced: while one
   * NOTIFY is on its way, later appends only raise the position the next one carries (a listener
   * needs to know that something after its checkpoint exists, not every append).
   */
  private announce(position: string): void {
    if (this.lastAnnounced === undefined || position > this.lastAnnounced) {
      this.lastAnnounced = position;
    }
    this.wakeWaiters(position);
    if (this.unannounced === undefined || position > this.unannounced) this.unannounced = position;
    this.announcing ??= (async () => {
      while (this.unannounced !== undefined) {
        const wait = this.lastNotifiedAt + NOTIFY_INTERVAL_MS - Date.now();
        if (wait > 0) await new Promise((done) => setTimeout(done, wait).unref());
        this.lastNotifiedAt = Date.now();
        const payload = this.unannounced;
        this.unannounced = undefined;
        await this.pool
          .query({
            name: 'es_notify',
            text: 'SELECT pg_notify($1, $2)',
            values: [APPEND_CHANNEL, payload],
          })
          .catch(() => undefined); // listeners fall back on their timeout
      }
      this.announcing = undefined;
    })();
  }

  private listen(): Promise<Client> {
    if (this.closed) return Promise.reject(new Error('PostgresEventStore is closed'));
    if (this.listener === undefined && Date.now() < this.listenerRetryAt) {
      return Promise.reject(new Error('LISTEN connection unavailable, polling meanwhile'));
    }
    this.listener ??= this.openListener();
    return this.listener;
  }

  private openListener(): Promise<Client> {
    const client = new Client(this.pool.options as ClientConfig);
    let established = false;
    const drop = () => {
      if (this.listener !== opened) return;
      this.listener = undefined;
      client.end().catch(() => undefined);
      if (established) {
        // Notifications may have been lost with the connection: let every sleeper read again.
        this.wakeWaiters('');
      } else {
        // Never listened, so nothing was missed; the sleepers poll, and we retry later rather
        // than on every call.
        this.listenerRetryAt = Date.now() + LISTENER_RETRY_MS;
      }
    };
    const opened: Promise<Client> = (async () => {
      client.on('notification', (message) => this.wakeWaiters(message.payload ?? ''));
      client.on('error', drop);
      client.on('end', drop);
      await client.connect();
      await client.query(`LISTEN ${APPEND_CHANNEL}`);
      established = true;
      return client;
    })();
    opened.catch(drop);
    return opened;
  }

  private wakeWaiters(position: string): void {
    for (const wake of [...this.waiters]) wake(position);
  }
}

/**
 * Appends on a client inside the caller's transaction (e.g. to write events and a read model
 * together). One statement; a conflict throws ConcurrencyError and leaves the transaction usable;
 * its NOTIFY goes out with the caller's commit.
 */
export async function appendToStreamIn(
  db: Queryable,
  streamName: string,
  events: NewEvent[],
  options: { expectedRevision?: ExpectedRevision } = {},
): Promise<AppendResult> {
  return appendInTransaction(
    db,
    streamName,
    prepareEvents(streamName, events),
    options.expectedRevision ?? 'any',
  );
}

const POSITION = /^(\d{20}):(\d{20})$/;

function parsePosition(position: string | null): [string, string] {
  if (position === null) return ['0', '0'];
  const match = POSITION.exec(position);
  if (!match) throw new TypeError(`Not a Postgres event store position: "${position}"`);
  return [BigInt(match[1]!).toString(), BigInt(match[2]!).toString()];
}

const toStreamEvent = (streamName: string, row: StreamEventRow): RecordedEvent => ({
  id: row.message_id,
  streamName,
  type: row.message_type,
  data: row.message_data,
  metadata: row.message_metadata,
  revision: BigInt(row.stream_position),
  position: row.position,
  createdAt: row.created_at,
});

const toRecorded = (row: MessageRow): RecordedEvent => toStreamEvent(row.stream_name, row);
