import type { QueryConfig, QueryResult, QueryResultRow } from 'pg';
import {
  ConcurrencyError,
  DuplicateEventIdError,
  type AppendResult,
  type ExpectedRevision,
} from './event-store';
import type { PreparedEvent } from './prepare-events';

/**
 * The one way PostgresEventStore writes events, over the schema of the migration
 * `prisma/migrations/20261122000110_event_store_lean/migration.sql` (es_messages alone; revisions
 * are dense, so the primary key (stream_name, stream_position) is the concurrency check).
 *
 * One statement (appendSql) writes any number of appends, each to its stream with its expected
 * revision, each of one event or many: a lone append is a list of one, and appends grouped while
 * a statement is on its way (group commit, see PostgresEventStore) are the same statement with
 * more rows. An append it did not write (its expected revision did not hold, or the statement
 * failed on a unique key: a lost race, a retry, a duplicate id) is settled by `appendSettled`: one
 * look at the stream tells an idempotent retry, a conflict or a duplicate id apart, or that the
 * statement may go again. The plpgsql es_append_to_stream of the migrations is no longer called
 * (it stays in the database until no running release calls it).
 */

/** What the append and reads need: a Pool, or a client inside the caller's transaction. */
export interface Queryable {
  query<Row extends QueryResultRow = QueryResultRow>(
    config: QueryConfig,
  ): Promise<QueryResult<Row>>;
}

/** A batch for one stream, with the revision its appender expects. */
export interface StreamAppend {
  streamName: string;
  events: readonly PreparedEvent[];
  expected: ExpectedRevision;
}

/**
 * Events in one statement at most: up to 8 parameters each, under Postgres' 65,535. An append of
 * more is refused (grouped appends are single events, see PostgresEventStore).
 */
export const MAX_EVENTS_PER_STATEMENT = 8_191;

/** Appends grouped in one statement at most. */
export const MAX_APPENDS_PER_STATEMENT = 64;

/**
 * The position, `<transaction id>:<global position>` each zero-padded to 20 digits, made by the
 * server: one text column is measurably cheaper for node-postgres to decode than the columns it
 * is made of.
 */
export const POSITION_SQL = `lpad(transaction_id::text, 20, '0') || ':' || lpad(global_position::text, 20, '0')`;

/**
 * The statement for `count` events: a VALUES row each (stream, expected kind and revision when
 * `lookups`, place in its append, the event), whatever appends they belong to. 'no_stream' writes
 * at 0 on and the key is the check (a stream exists exactly when its revision 0 does); exact r at
 * r + 1 on if revision r exists; 'any' and 'stream_exists' after the head, read in the statement's
 * snapshot. A lost race, a retry or a duplicate id fails the key (the statement writes nothing);
 * an expectation that does not hold writes nothing for its append. Two appends to one stream in
 * one statement start at the same revision: at most one is written.
 *
 * Measured choices. Without `lookups` (all 'no_stream', the most frequent append) it is a plain
 * INSERT: a subquery costs its executor set-up on every run, taken or not (40-60 µs for the three:
 * a single-event append 0.74x raw INSERT instead of 0.87x). Scalar rows, not arrays: Postgres
 * prices an unnest of a parameter at 10 rows, the lookups with them, and planned every run afresh
 * (+0.2 ms). OFFSET 0 keeps a single row from being folded into constants, which made each custom
 * plan look cheaper than the generic one. The revision checks are scalar subqueries, not EXISTS:
 * Postgres may run an EXISTS as a hashed subplan, a scan of the whole table per run, and a generic
 * plan made while the table was small (a new database, with no ANALYZE yet) kept that choice as it
 * grew (seen: 0.9 to 5 ms per append instead of 0.06). VALUES order is insert order: global
 * positions follow the appends and their events.
 */
function appendSql(count: number, lookups: boolean): string {
  const columns = lookups
    ? ['text', 'text', 'bigint', 'int', 'uuid', 'text', 'jsonb', 'jsonb']
    : ['text', 'int', 'uuid', 'text', 'jsonb', 'jsonb'];
  const rows = Array.from({ length: count }, (_, row) => {
    const n = row * columns.length;
    return `(${columns.map((type, column) => `$${n + column + 1}::${type}`).join(', ')})`;
  });
  const values = `(VALUES ${rows.join(',\n      ')}) AS v(stream_name, ${
    lookups ? 'kind, expected, ' : ''
  }k, id, type, data, metadata)`;
  const insert = `INSERT INTO es_messages
    (stream_name, stream_position, message_id, message_type, message_data, message_metadata)`;
  const returning = `RETURNING message_id, stream_position, ${POSITION_SQL} AS position`;
  if (!lookups) {
    return `${insert}
  SELECT v.stream_name, v.k, v.id, v.type, v.data, v.metadata FROM ${values}
  ${returning}`;
  }
  return `${insert}
  SELECT v.stream_name,
         v.k + CASE v.kind
                 WHEN 'no_stream' THEN 0
                 WHEN 'exact' THEN v.expected + 1
                 ELSE coalesce((SELECT max(m.stream_position) FROM es_messages m
                                 WHERE m.stream_name = v.stream_name), -1) + 1
               END,
         v.id, v.type, v.data, v.metadata
    FROM (SELECT * FROM ${values} OFFSET 0) v
   WHERE CASE v.kind
           WHEN 'exact' THEN coalesce((SELECT true FROM es_messages m
                                        WHERE m.stream_name = v.stream_name
                                          AND m.stream_position = v.expected), false)
           WHEN 'stream_exists' THEN coalesce((SELECT true FROM es_messages m
                                                WHERE m.stream_name = v.stream_name
                                                  AND m.stream_position = 0), false)
           ELSE true
         END
  ${returning}`;
}

const statements = new Map<string, { name: string; text: string }>();

/** One prepared statement per event count and need of lookups (a text of its own). */
function statementFor(count: number, lookups: boolean): { name: string; text: string } {
  const name = `es_append${count === 1 ? '' : `_x${count}`}${lookups ? '_looked_up' : ''}`;
  let statement = statements.get(name);
  if (statement === undefined) {
    statement = { name, text: appendSql(count, lookups) };
    statements.set(name, statement);
  }
  return statement;
}

/**
 * Writes each append whose expected revision holds, in one statement; undefined for the others.
 * Rejects when the statement fails (nothing is then written): a unique violation means a lost
 * race, a retry or a duplicate id, which `appendSettled` sorts out.
 */
export async function insertAppends(
  db: Queryable,
  appends: readonly StreamAppend[],
): Promise<Array<AppendResult | undefined>> {
  const values: unknown[] = [];
  let count = 0;
  const lookups = appends.some(({ expected }) => expected !== 'no_stream');
  for (const { streamName, events, expected } of appends) {
    const kind = typeof expected === 'bigint' ? 'exact' : expected;
    const revision = typeof expected === 'bigint' ? String(expected) : null;
    for (let k = 0; k < events.length; k++) {
      const { id, type, dataJson, metadataJson } = events[k]!;
      if (lookups) values.push(streamName, kind, revision, k, id, type, dataJson, metadataJson);
      else values.push(streamName, k, id, type, dataJson, metadataJson);
    }
    count += events.length;
  }
  if (count > MAX_EVENTS_PER_STATEMENT) {
    throw new RangeError(`At most ${MAX_EVENTS_PER_STATEMENT} events in one append, got ${count}`);
  }
  const { rows } = await db.query<{
    message_id: string;
    stream_position: string;
    position: string;
  }>({ ...statementFor(count, lookups), values });
  const written = new Map(rows.map((row) => [row.message_id, row]));
  return appends.map(({ events }) => {
    const last = written.get(events[events.length - 1]!.id);
    return last && { nextExpectedRevision: BigInt(last.stream_position), position: last.position };
  });
}

/** What `appendSettled` learns of the stream and of the batch's ids, in one snapshot. */
interface LookRow {
  head: string | null;
  /** Revision of the batch's first id in this stream, if it is there. */
  first: string | null;
  /** How many of the batch's ids sit, in order, from `first` on. */
  matched: number;
  /** The position of the last of those. */
  last_position: string | null;
  /** An id of the batch stored anywhere. */
  stored_id: string | null;
}

// The retry rule of EventStoreDB (and of the in-memory store): a batch is a retry when its first
// id is in the stream, the following ids follow it in order, and the expected revision is the one
// the original append had.
const LOOK_SQL = `WITH first AS (
    SELECT stream_position FROM es_messages WHERE message_id = ($2::uuid[])[1] AND stream_name = $1
  ), matched AS (
    SELECT m.stream_position, m.transaction_id, m.global_position
      FROM first f
      CROSS JOIN unnest($2::uuid[]) WITH ORDINALITY AS b(id, ord)
      JOIN es_messages m ON m.stream_name = $1
       AND m.stream_position = f.stream_position + b.ord - 1 AND m.message_id = b.id
  )
  SELECT (SELECT max(stream_position) FROM es_messages WHERE stream_name = $1) AS head,
         (SELECT stream_position FROM first) AS first,
         (SELECT count(*)::int FROM matched) AS matched,
         (SELECT ${POSITION_SQL} FROM matched ORDER BY stream_position DESC LIMIT 1) AS last_position,
         (SELECT message_id FROM es_messages WHERE message_id = ANY($2::uuid[]) LIMIT 1) AS stored_id`;

/**
 * An append that `insert` may not have written (`tried`: undefined, or a unique violation),
 * settled: an idempotent retry answers the original's result, a failed expectation throws
 * ConcurrencyError, an id stored elsewhere DuplicateEventIdError; otherwise the statement lost a
 * race for a position (or the stream moved to the expected revision meanwhile) and goes again.
 */
export async function appendSettled(
  db: Queryable,
  append: StreamAppend,
  insert: (append: StreamAppend) => Promise<AppendResult | undefined>,
  tried: Promise<AppendResult | undefined> = insert(append),
): Promise<AppendResult> {
  const { streamName, events, expected } = append;
  let lostAt: string | null | undefined;
  for (;;) {
    const written = await tried.catch(undefinedOnUniqueViolation);
    if (written !== undefined) return written;
    const { rows } = await db.query<LookRow>({
      name: 'es_append_look',
      text: LOOK_SQL,
      values: [streamName, events.map((event) => event.id)],
    });
    const look = rows[0]!;
    const head = look.head === null ? undefined : BigInt(look.head);
    if (look.first !== null) {
      const first = BigInt(look.first);
      const retried =
        look.matched === events.length &&
        (expected === 'any' ||
          expected === 'stream_exists' ||
          (expected === 'no_stream' && first === 0n) ||
          (typeof expected === 'bigint' && first === expected + 1n));
      if (!retried) throw new ConcurrencyError(streamName, expected, head);
      return {
        nextExpectedRevision: first + BigInt(events.length) - 1n,
        position: look.last_position!,
      };
    }
    if (!holds(expected, head)) throw new ConcurrencyError(streamName, expected, head);
    if (look.stored_id !== null) {
      throw new DuplicateEventIdError(streamName, `Key (message_id)=(${look.stored_id}) exists`);
    }
    if (lostAt !== undefined && look.head === lostAt) {
      // The winner is not visible: the caller's snapshot does not move (REPEATABLE READ or
      // SERIALIZABLE), as when an UPDATE meets a row updated concurrently.
      throw serializationFailure(streamName);
    }
    lostAt = look.head;
    tried = insert(append);
  }
}

/** The one statement for one append, for an autocommit connection. */
export const insertOne = (db: Queryable) => (append: StreamAppend) =>
  insertAppends(db, [append]).then((results) => results[0]);

function holds(expected: ExpectedRevision, head: bigint | undefined): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return head === undefined;
    case 'stream_exists':
      return head !== undefined;
    default:
      return head === expected;
  }
}

function undefinedOnUniqueViolation(error: unknown): undefined {
  if (error instanceof Error && (error as { code?: string }).code === '23505') return undefined;
  throw error;
}

const serializationFailure = (streamName: string) =>
  Object.assign(new Error(`Stream ${streamName} was appended to concurrently`), {
    code: '40001',
  });
