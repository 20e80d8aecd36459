import type { Pool, PoolClient } from 'pg';

/**
 * Runs `work` once per (consumer, message) however often the message is delivered: the
 * `bus_processed_messages` row and the work's writes commit in one transaction. Returns false
 * when the message was already processed. A concurrent duplicate waits on the first one's row
 * lock, then skips if it committed or runs if it rolled back.
 */
export async function processOnce(
  pool: Pool,
  consumer: string,
  messageId: string,
  work: (tx: PoolClient) => Promise<void>,
): Promise<boolean> {
  const tx = await pool.connect();
  try {
    await tx.query('BEGIN');
    const marked = await tx.query(
      `INSERT INTO bus_processed_messages (consumer, message_id) VALUES ($1, $2)
       ON CONFLICT (consumer, message_id) DO NOTHING`,
      [consumer, messageId],
    );
    if (marked.rowCount === 0) {
      await tx.query('ROLLBACK');
      return false;
    }
    await work(tx);
    await tx.query('COMMIT');
    return true;
  } catch (error) {
    await tx.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    tx.release();
  }
}

/**
 * `processOnce` for several messages in one transaction: one BEGIN, one statement marking them
 * all, the work of those marked now, one COMMIT. Per message, in the order given, whether it was
 * processed here (false: already processed, or named earlier in the same call). Marks are taken
 * in id order, so two such transactions sharing messages wait on each other instead of
 * deadlocking. A failure rolls back every mark and every write: none of them was processed.
 */
export async function processEachOnce(
  pool: Pool,
  consumer: string,
  messageIds: string[],
  work: (tx: PoolClient, fresh: number[]) => Promise<void>,
): Promise<boolean[]> {
  const tx = await pool.connect();
  try {
    await tx.query('BEGIN');
    const { rows } = await tx.query<{ message_id: string }>(
      `INSERT INTO bus_processed_messages (consumer, message_id)
       SELECT $1, id FROM unnest($2::text[]) AS id ORDER BY id
       ON CONFLICT (consumer, message_id) DO NOTHING
       RETURNING message_id`,
      [consumer, messageIds],
    );
    const marked = new Set(rows.map((row) => row.message_id));
    // A message named twice is processed at its first place only.
    const fresh = messageIds.flatMap((id, index) => (marked.delete(id) ? [index] : []));
    if (fresh.length > 0) await work(tx, fresh);
    await tx.query('COMMIT');
    const processed = messageIds.map(() => false);
    for (const index of fresh) processed[index] = true;
    return processed;
  } catch (error) {
    await tx.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    tx.release();
  }
}

/**
 * `processOnce` for unit tests: same answers, no database. A message counts as processed once
 * its work succeeded; a duplicate arriving meanwhile waits for the first to finish.
 */
export class InMemoryProcessedMessages {
  private readonly done = new Set<string>();
  private readonly running = new Map<string, Promise<boolean>>();

  async processOnce(
    consumer: string,
    messageId: string,
    work: () => Promise<void>,
  ): Promise<boolean> {
    const key = JSON.stringify([consumer, messageId]);
    // Loop: when the first attempt fails, only one of the duplicates waiting on it may run next.
    for (let inFlight = this.running.get(key); inFlight; inFlight = this.running.get(key)) {
      await inFlight.catch(() => undefined);
    }
    if (this.done.has(key)) return false;
    const attempt = work().then(() => {
      this.done.add(key);
      return true;
    });
    this.running.set(key, attempt);
    try {
      return await attempt;
    } finally {
      this.running.delete(key);
    }
  }

  has(consumer: string, messageId: string): boolean {
    return this.done.has(JSON.stringify([consumer, messageId]));
  }
}
