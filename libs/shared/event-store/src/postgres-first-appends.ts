import { StatementBatcher } from '@xaalis/batching';
import type { AppendResult } from './event-store';
import { appendAutocommit, POSITION_SQL, type Queryable } from './postgres-append';
import type { PreparedEvent } from './prepare-events';

/**
 * Group commit (`StatementBatcher`) for the most frequent append there is: one event opening a new
 * stream (a payment, a payout, an invoice created). The appends made while one is on its way go
 * together as one INSERT.
 *
 * Measured in the running service (16 clients creating payments, paired rounds): an append on its
 * own cost the process about a third of a create's foreground CPU, mostly the round trip itself (a
 * pooled connection, a write and a read on its socket, the reply's promises), about the same for
 * one row as for several. Grouped, a create cost a quarter less CPU.
 *
 * When a batch fails (two appends opening the same stream, an event id already stored, a value
 * Postgres refuses), each append is made again on its own. Retrying is safe even when the batch
 * may have committed (a connection lost before the reply): an append that finds its own event
 * already written is an idempotent success.
 */

/** Rows in one statement at most: 5 parameters each, well under Postgres' 65,535. */
export const MAX_FIRST_APPENDS = 64;

interface FirstAppend {
  streamName: string;
  event: PreparedEvent;
}

/** The statement for `count` rows; the parameter lists are numbered five by five. */
function insertFirstSql(count: number): string {
  const rows = Array.from({ length: count }, (_, row) => {
    const n = row * 5;
    return `($${n + 1}, 0, $${n + 2}::uuid, $${n + 3}, $${n + 4}::jsonb, $${n + 5}::jsonb)`;
  });
  return `INSERT INTO es_messages
    (stream_name, stream_position, message_id, message_type, message_data, message_metadata)
  VALUES ${rows.join(', ')}
  RETURNING stream_name, ${POSITION_SQL} AS position`;
}

const statements = new Map<number, { name: string; text: string }>();

function statementFor(count: number): { name: string; text: string } {
  let statement = statements.get(count);
  if (statement === undefined) {
    statement = { name: `es_append_first_x${count}`, text: insertFirstSql(count) };
    statements.set(count, statement);
  }
  return statement;
}

export class FirstAppends {
  private readonly lane: StatementBatcher<FirstAppend, AppendResult>;

  constructor(private readonly db: Queryable) {
    this.lane = new StatementBatcher({
      alone: ({ streamName, event }) => appendAutocommit(db, streamName, [event], 'no_stream'),
      together: (appends) => this.insert(appends),
      maxBatch: MAX_FIRST_APPENDS,
    });
  }

  /** Appends `event` as revision 0 of `streamName`, which must not exist yet ('no_stream'). */
  append(streamName: string, event: PreparedEvent): Promise<AppendResult> {
    return this.lane.submit({ streamName, event });
  }

  private async insert(appends: FirstAppend[]): Promise<AppendResult[]> {
    const values: string[] = [];
    for (const { streamName, event } of appends) {
      values.push(streamName, event.id, event.type, event.dataJson, event.metadataJson);
    }
    const { name, text } = statementFor(appends.length);
    const { rows } = await this.db.query<{ stream_name: string; position: string }>({
      name,
      text,
      values,
    });
    const positions = new Map(rows.map((row) => [row.stream_name, row.position]));
    return appends.map(({ streamName }) => {
      const position = positions.get(streamName);
      if (position === undefined) throw new Error(`The append to ${streamName} returned no row`);
      return { nextExpectedRevision: 0n, position };
    });
  }
}
