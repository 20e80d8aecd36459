import type { AppendResult } from './event-store';
import {
  MAX_EVENTS_PER_STATEMENT,
  POSITION_SQL,
  type Queryable,
  type StreamAppend,
} from './postgres-append';
import type { PreparedCreation, PreparedEvent } from './prepare-events';

/**
 * The statement for an append and the streams it creates (`AppendOptions.creating`), `count`
 * events in all: each row is written only if the append's expected revision holds ($n+2, null
 * for 'no_stream') and none of the streams that must be new exists ($n+3), both looked at once in
 * the statement's snapshot, so it writes everything or nothing (a race lost on a position fails
 * the key, as in appendSql). Positions are the caller's, known from the expectation. The created
 * streams' rows come first: the append's last event has the statement's last position. The
 * checks are scalar subqueries for the reason appendSql gives.
 */
function creatingSql(count: number): string {
  const rows = Array.from({ length: count }, (_, row) => {
    const n = row * 6;
    return `($${n + 1}::text, $${n + 2}::bigint, $${n + 3}::uuid, $${n + 4}::text, $${n + 5}::jsonb, $${n + 6}::jsonb)`;
  });
  const stream = `$${count * 6 + 1}::text`;
  const expected = `$${count * 6 + 2}::bigint`;
  const absent = `$${count * 6 + 3}::text[]`;
  return `INSERT INTO es_messages
    (stream_name, stream_position, message_id, message_type, message_data, message_metadata)
  SELECT v.stream_name, v.k, v.id, v.type, v.data, v.metadata
    FROM (VALUES ${rows.join(',\n      ')}) AS v(stream_name, k, id, type, data, metadata)
   WHERE (${expected} IS NULL
          OR coalesce((SELECT true FROM es_messages m
                        WHERE m.stream_name = ${stream} AND m.stream_position = ${expected}), false))
     AND NOT coalesce((SELECT true FROM es_messages m
                        WHERE m.stream_name = ANY(${absent}) AND m.stream_position = 0
                        LIMIT 1), false)
  RETURNING message_id, stream_position, ${POSITION_SQL} AS position`;
}

const creatingStatements = new Map<number, { name: string; text: string }>();

/**
 * The append and the streams it creates in one statement (`creatingSql`): the append's result, or
 * undefined when its expectation did not hold or one of the streams exists.
 */
export async function insertCreating(
  db: Queryable,
  append: StreamAppend,
  creations: readonly PreparedCreation[],
): Promise<AppendResult | undefined> {
  const { streamName, events, expected } = append;
  const first = typeof expected === 'bigint' ? expected + 1n : 0n;
  const values: unknown[] = [];
  const push = (name: string, position: bigint, event: PreparedEvent) =>
    values.push(name, String(position), event.id, event.type, event.dataJson, event.metadataJson);
  for (const creation of creations) {
    creation.events.forEach((event, k) => push(creation.streamName, BigInt(k), event));
  }
  events.forEach((event, k) => push(streamName, first + BigInt(k), event));
  const count = values.length / 6;
  if (count > MAX_EVENTS_PER_STATEMENT) {
    throw new RangeError(`At most ${MAX_EVENTS_PER_STATEMENT} events in one append, got ${count}`);
  }
  const absent = creations.map((creation) => creation.streamName);
  if (expected === 'no_stream') absent.push(streamName);
  let statement = creatingStatements.get(count);
  if (statement === undefined) {
    statement = { name: `es_append_creating_x${count}`, text: creatingSql(count) };
    creatingStatements.set(count, statement);
  }
  const { rows } = await db.query<{
    message_id: string;
    stream_position: string;
    position: string;
  }>({
    ...statement,
    values: [...values, streamName, typeof expected === 'bigint' ? String(expected) : null, absent],
  });
  const last = rows.find((row) => row.message_id === events[events.length - 1]!.id);
  return last && { nextExpectedRevision: BigInt(last.stream_position), position: last.position };
}

/** The first of these streams that exists, with its revision, if one does. */
export async function firstExisting(
  db: Queryable,
  streamNames: readonly string[],
): Promise<{ streamName: string; head: bigint } | undefined> {
  const { rows } = await db.query<{ stream_name: string; head: string }>({
    name: 'es_first_existing',
    text: `SELECT m.stream_name,
                  (SELECT max(h.stream_position) FROM es_messages h
                    WHERE h.stream_name = m.stream_name) AS head
             FROM es_messages m
            WHERE m.stream_name = ANY($1::text[]) AND m.stream_position = 0
            LIMIT 1`,
    values: [streamNames],
  });
  const row = rows[0];
  return row && { streamName: row.stream_name, head: BigInt(row.head) };
}
