import type { Pool } from 'pg';

/**
 * How many rows of `table` sequential scans have read so far, the statements `session` ran
 * included: a test's check that a statement finds its rows by an index however large the table.
 * `session` is a pool of one connection, the one the statements ran on: its counts reach the
 * statistics once it is idle after asking for them.
 */
export async function rowsScanned(session: Pool, table: string): Promise<number> {
  await session.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await session.query<{ read: string }>(
    'SELECT seq_tup_read AS read FROM pg_stat_user_tables WHERE relname = $1',
    [table],
  );
  return Number(rows[0]!.read);
}
