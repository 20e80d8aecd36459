import type { Pool } from 'pg';
import { StatementBatcher } from '@xaalis/batching';

/**
 * Grouped reads of whole streams, for `aggregateStream` (a payment's GET): the reads asked for
 * while one is on its way go together as one SELECT (`StatementBatcher`). A read's cost on this
 * machine is mostly its round trip (the write to the server's socket, the wake-up of its
 * backend), the same for one stream as for several.
 *
 * The lane is shared by every fold of the process, so it suits short streams (a payment's are a
 * handful of events): a stream of thousands would hold up the reads behind it. Commands read
 * through `readStream`, which is not grouped.
 *
 * Measured with 16 clients reading 200 payments in turn: −24% CPU per read, 0.74× → 0.90× the
 * raw node:http + pg server (which sends one SELECT per request).
 */

/** Streams in one statement at most. */
export const MAX_STREAM_READS = 64;

/** One stored event, as a fold needs it. */
export interface StreamFact {
  type: string;
  data: unknown;
  stream_position: string;
}

// A fold needs each event's type and data only, and the last revision: one index range in order
// per stream, with none of the columns (id, metadata, position, time) that readStream parses.
const READ_ONE_SQL = `SELECT message_type AS type, message_data AS data, stream_position
  FROM es_messages WHERE stream_name = $1 ORDER BY stream_position`;

const READ_MANY_SQL = `SELECT stream_name, message_type AS type, message_data AS data, stream_position
  FROM es_messages WHERE stream_name = ANY($1::text[]) ORDER BY stream_name, stream_position`;

export class StreamReads {
  private readonly lane: StatementBatcher<string, StreamFact[]>;

  constructor(private readonly pool: Pick<Pool, 'query'>) {
    this.lane = new StatementBatcher({
      alone: (streamName) => this.readOne(streamName),
      together: (streamNames) => this.readMany(streamNames),
      maxBatch: MAX_STREAM_READS,
    });
  }

  /** Every event of `streamName` in order; none for a stream that does not exist. */
  read(streamName: string): Promise<StreamFact[]> {
    return this.lane.submit(streamName);
  }

  private async readOne(streamName: string): Promise<StreamFact[]> {
    const { rows } = await this.pool.query<StreamFact>({
      name: 'es_aggregate_stream',
      text: READ_ONE_SQL,
      values: [streamName],
    });
    return rows;
  }

  /**
   * A stream asked for twice in one batch is read once; each later caller gets its own copy, so
   * no two callers ever share an event's objects (as with a read each).
   */
  private async readMany(streamNames: string[]): Promise<StreamFact[][]> {
    const { rows } = await this.pool.query<StreamFact & { stream_name: string }>({
      name: 'es_aggregate_streams',
      text: READ_MANY_SQL,
      values: [[...new Set(streamNames)]],
    });
    const byStream = new Map<string, StreamFact[]>();
    for (const row of rows) {
      const facts = byStream.get(row.stream_name);
      if (facts === undefined) byStream.set(row.stream_name, [row]);
      else facts.push(row);
    }
    const handedOut = new Set<string>();
    return streamNames.map((streamName) => {
      const facts = byStream.get(streamName) ?? [];
      if (!handedOut.has(streamName)) {
        handedOut.add(streamName);
        return facts;
      }
      return structuredClone(facts);
    });
  }
}
