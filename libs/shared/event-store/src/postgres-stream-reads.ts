import { types } from 'pg';
import type { RecordedEvent, StoredFact } from './event-store';
import { POSITION_SQL, type Queryable } from './postgres-append';

/**
 * The one way PostgresEventStore reads streams: one statement for any number of reads, each of a
 * stream from a revision up to a count. readStream sends a list of one; aggregateStream's reads
 * are grouped while one is on its way (see PostgresEventStore), the same statement with longer
 * arrays.
 */

/** What readStream is asked: a stream, from a revision, up to a count (null: to its end). */
export interface StreamRead {
  streamName: string;
  fromRevision: bigint;
  maxCount: number | null;
}

/** Streams in one statement at most. */
export const MAX_READS_PER_STATEMENT = 64;

/**
 * The reads (stream, from revision, count) in arrays: one text for any number of reads, so one
 * prepared statement. LIMIT cardinality($1), which cuts nothing, is for the planner: it prices an
 * unnest of a parameter at 10 rows, the lookups with them, and so kept planning each run afresh;
 * a LIMIT it cannot read it prices at a tenth of its input, and keeps the generic plan after five
 * runs. A row per event in range, or one with no event for a read whose range holds none. The position is made by the server: node-postgres decodes one text column for less
 * than the two numbers it is made of.
 *
 * The stream's revision, in the same snapshot: a read to the end has it in its last row, so it is
 * looked up (a CASE runs its subquery only when taken) only for an empty range (past the end, or
 * no such stream) and, once, on the first row of a bounded one (revisions are dense from 0, so
 * that row is at greatest(from, 0)). The usual read, a whole stream, is one index range.
 */
const READ_STREAMS_SQL = `SELECT r.n, m.stream_position, m.message_id, m.message_type,
       m.message_data, m.message_metadata, m.position, m.created_at,
       CASE WHEN m.stream_position IS NULL
              OR (r.max_count IS NOT NULL AND m.stream_position = greatest(r.from_revision, 0))
            THEN (SELECT max(stream_position) FROM es_messages WHERE stream_name = r.stream_name)
       END AS revision
  FROM (SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[])
                 WITH ORDINALITY AS r(stream_name, from_revision, max_count, n)
         LIMIT cardinality($1::text[])) r
  LEFT JOIN LATERAL (
    SELECT stream_position, message_id, message_type, message_data, message_metadata,
           ${POSITION_SQL} AS position, created_at
      FROM es_messages
     WHERE stream_name = r.stream_name AND stream_position >= r.from_revision
     ORDER BY stream_position
     LIMIT r.max_count
  ) m ON true
  ORDER BY r.n, m.stream_position`;

/** A read's rows as the server sent them: text, parsed by toEvents or toFacts. */
export interface StreamRow {
  stream_position: string;
  message_id: string;
  message_type: string;
  message_data: string;
  message_metadata: string;
  position: string;
  created_at: string;
}

/** A stream's rows in range, and its revision (undefined: no such stream). */
export interface StreamRows {
  rows: StreamRow[];
  currentRevision: bigint | undefined;
}

type ReadRow = { n: string; revision: string | null } & (
  StreamRow | { [Column in keyof StreamRow]: null }
);

/**
 * Every column comes back as the text the server sent, so that each reader parses what it uses:
 * readStream all of it, a fold (aggregateStream, a payment's GET) only each event's type and data,
 * as the narrower statement it used to have did.
 */
const AS_TEXT = { getTypeParser: () => (value: string) => value };

const parseTimestamp = types.getTypeParser(types.builtins.TIMESTAMPTZ) as (text: string) => Date;

/** Each read's rows and its stream's revision, in the reads' order. */
export async function readStreams(
  db: Queryable,
  reads: readonly StreamRead[],
): Promise<StreamRows[]> {
  const { rows } = await db.query<ReadRow>({
    name: 'es_read_streams',
    text: READ_STREAMS_SQL,
    values: [
      reads.map((read) => read.streamName),
      reads.map((read) => String(read.fromRevision)),
      reads.map((read) => read.maxCount),
    ],
    types: AS_TEXT,
  });
  const results: StreamRows[] = reads.map(() => ({ rows: [], currentRevision: undefined }));
  for (const row of rows) {
    const result = results[Number(row.n) - 1]!;
    if (row.revision !== null) result.currentRevision = BigInt(row.revision);
    if (row.stream_position !== null) result.rows.push(row);
  }
  for (const result of results) {
    const last = result.rows.at(-1);
    if (result.currentRevision === undefined && last !== undefined) {
      result.currentRevision = BigInt(last.stream_position);
    }
  }
  return results;
}

/** readStream's events. */
export const toEvents = (streamName: string, rows: readonly StreamRow[]): RecordedEvent[] =>
  rows.map((row) => ({
    id: row.message_id,
    streamName,
    type: row.message_type,
    data: JSON.parse(row.message_data) as unknown,
    metadata: JSON.parse(row.message_metadata) as Record<string, unknown>,
    revision: BigInt(row.stream_position),
    position: row.position,
    createdAt: parseTimestamp(row.created_at),
  }));

/** A fold's events: their type and data. */
export const toFacts = (rows: readonly StreamRow[]): StoredFact[] =>
  rows.map((row) => ({ type: row.message_type, data: JSON.parse(row.message_data) as unknown }));
