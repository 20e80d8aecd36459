import type { AppendResult, ExpectedRevision, NewEvent } from './event-store';
import { appendSettled, insertOne, type Queryable, type StreamAppend } from './postgres-append';
import { APPEND_CHANNEL, appendNotification } from './postgres-append-notification';
import { categoryOf, prepareEvents } from './prepare-events';

/**
 * The statement inside a caller's transaction: in a savepoint, so a unique violation leaves the
 * transaction usable.
 */
const insertInTransaction = (db: Queryable) => async (append: StreamAppend) => {
  await db.query({ text: 'SAVEPOINT es_append' });
  try {
    const result = await insertOne(db)(append);
    await db.query({ text: 'RELEASE SAVEPOINT es_append' });
    return result;
  } catch (error) {
    await db.query({ text: 'ROLLBACK TO SAVEPOINT es_append' });
    throw error;
  }
};

/**
 * Appends on a client inside the caller's transaction (e.g. to write events and a read model
 * together): the same statement, in a savepoint, so a conflict throws ConcurrencyError and leaves
 * the transaction usable. Its NOTIFY goes out with the caller's commit.
 */
export async function appendToStreamIn(
  db: Queryable,
  streamName: string,
  events: NewEvent[],
  options: { expectedRevision?: ExpectedRevision } = {},
): Promise<AppendResult> {
  const append: StreamAppend = {
    streamName,
    events: prepareEvents(streamName, events),
    expected: options.expectedRevision ?? 'any',
  };
  const result = await appendSettled(db, append, insertInTransaction(db));
  await db.query({
    name: 'es_notify',
    text: 'SELECT pg_notify($1, $2)',
    values: [APPEND_CHANNEL, appendNotification(result.position, [categoryOf(streamName)])],
  });
  return result;
}
