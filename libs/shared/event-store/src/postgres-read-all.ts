import type { ReadAllOptions, ReadAllPage, RecordedEvent } from './event-store';
import { POSITION_SQL, type Queryable } from './postgres-append';
import { assertMaxCount } from './prepare-events';

/**
 * PostgresEventStore's reads of all streams in global order ((transaction_id, global_position),
 * see the migration `20261122000100_event_store`), and the peek its waitForAppend makes.
 */

/** An event as readAll returns it. */
interface MessageRow {
  stream_name: string;
  stream_position: string;
  message_id: string;
  message_type: string;
  message_data: unknown;
  message_metadata: Record<string, unknown>;
  position: string;
  created_at: Date;
}

const MESSAGE_COLUMNS = `stream_name, stream_position, message_id, message_type, message_data,
  message_metadata, ${POSITION_SQL} AS position, created_at`;

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
// The prefixed peek walks the index from the checkpoint to the first row of the reader's streams:
// at most the rows appended since its last read, which its idle wait bounds.
const FIRST_AFTER = `ORDER BY m.transaction_id, m.global_position LIMIT 1`;
const peekSql = (prefixed: string) => `SELECT
  (SELECT m.global_position FROM es_messages m WHERE ${READ_ALL_WHERE}${prefixed} ${FIRST_AFTER})
    IS NOT NULL AS readable,
  (SELECT m.global_position FROM es_messages m
    WHERE m.transaction_id >= pg_snapshot_xmin(pg_current_snapshot())
      AND (m.transaction_id, m.global_position) > ($1::xid8, $2::bigint)${prefixed} ${FIRST_AFTER})
    IS NOT NULL AS pending`;
export const PEEK_SQL = peekSql('');
export const PEEK_PREFIXED_SQL = peekSql(' AND m.stream_name ^@ ANY($3::text[])');

/** readAll: events of every stream (or of some, by prefix) after a checkpoint, in global order. */
export async function readAll(db: Queryable, options: ReadAllOptions): Promise<RecordedEvent[]> {
  assertMaxCount(options.maxCount);
  const [transactionId, globalPosition] = parsePosition(options.after ?? null);
  const values: unknown[] = [transactionId, globalPosition, options.maxCount ?? null];
  const prefixed = options.streamPrefixes !== undefined;
  if (prefixed) values.push(options.streamPrefixes);
  const { rows } = await db.query<MessageRow>({
    name: prefixed ? 'es_read_all_prefixed' : 'es_read_all',
    text: prefixed ? READ_ALL_PREFIXED_SQL : READ_ALL_SQL,
    values,
  });
  return rows.map(toRecorded);
}

/** readAllPage: a page of readAll, and how far the store was scanned to make it. */
export async function readAllPage(db: Queryable, options: ReadAllOptions): Promise<ReadAllPage> {
  const after = options.after ?? null;
  if (options.streamPrefixes === undefined) {
    // Every visible row after `after` is read: a short page ends at the head.
    const events = await readAll(db, options);
    return { events, position: events.at(-1)?.position ?? after };
  }
  assertMaxCount(options.maxCount);
  // Nothing read is nothing scanned.
  if (options.maxCount === 0) return { events: [], position: after };
  const [transactionId, globalPosition] = parsePosition(after);
  const maxCount = options.maxCount ?? null;
  const { rows } = await db.query<
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
 * What waitForAppend needs to know before it sleeps: whether readAll would return something after
 * the checkpoint now, and whether committed rows after it are still held back (of the streams
 * with these prefixes, when given).
 */
export async function peek(
  db: Queryable,
  after: [transactionId: string, globalPosition: string],
  streamPrefixes?: readonly string[],
): Promise<{ readable: boolean; pending: boolean }> {
  const { rows } = await db.query<{ readable: boolean; pending: boolean }>(
    streamPrefixes === undefined
      ? { name: 'es_peek', text: PEEK_SQL, values: after }
      : { name: 'es_peek_prefixed', text: PEEK_PREFIXED_SQL, values: [...after, streamPrefixes] },
  );
  return rows[0]!;
}

const POSITION = /^(\d{20}):(\d{20})$/;

/** A checkpoint's two numbers (a bad checkpoint throws). */
export function parsePosition(position: string | null): [string, string] {
  if (position === null) return ['0', '0'];
  const match = POSITION.exec(position);
  if (!match) throw new TypeError(`Not a Postgres event store position: "${position}"`);
  return [BigInt(match[1]!).toString(), BigInt(match[2]!).toString()];
}

const toRecorded = (row: MessageRow): RecordedEvent => ({
  id: row.message_id,
  streamName: row.stream_name,
  type: row.message_type,
  data: row.message_data,
  metadata: row.message_metadata,
  revision: BigInt(row.stream_position),
  position: row.position,
  createdAt: row.created_at,
});
