import type { Pool } from 'pg';
import { newId } from '@xaalis/kernel';
import { PAYMENT_STREAM_PREFIX } from '@xaalis/payments-domain';
import { createPool } from '@xaalis/database';
import { createTestDatabase } from '@xaalis/testing';
import {
  type EmbeddedStack,
  issueTestSecretKey,
  SERVICE_POOL_SIZE,
  startEmbeddedStack,
} from './gateway';
import { measureInterleaved, warm, type Subject } from './measure';
import { createPayment, readPayment } from './payments';
import type { Judged } from './report';

/** Issue 18: the history a create and a read must not slow down with (BENCH_HISTORY_EVENTS). */
const HISTORY_EVENTS = Number(process.env.BENCH_HISTORY_EVENTS ?? 1_000_000);

interface Settings {
  durationMs: number;
  rounds: number;
  concurrency: number;
}

/**
 * Payment create and read on an empty store and on one holding `HISTORY_EVENTS` events, judged
 * ≥ 0.9× (cost must not grow with history). Each store is a database of its own served by a
 * stack of its own, both up at once, so the two are measured in alternating rounds like any other
 * pair: a machine whose speed drifts by a third within minutes moves both alike.
 */
export async function historyPairs(
  settings: Settings,
  log: (line: string) => void,
): Promise<Judged[]> {
  const emptyDb = await createTestDatabase();
  const fullDb = await createTestDatabase();
  const pool = createPool(fullDb.url, {
    applicationName: 'xaalis-bench-history',
    max: SERVICE_POOL_SIZE,
  });
  try {
    log('booting two embedded stacks, one to be given history');
    const empty = await startEmbeddedStack(emptyDb.url);
    try {
      const full = await startEmbeddedStack(fullDb.url);
      try {
        return await paymentsOverHistory(empty, full, pool, settings, log);
      } finally {
        await full.close();
      }
    } finally {
      await empty.close();
    }
  } finally {
    await pool.end();
    await fullDb.drop();
    await emptyDb.drop();
  }
}

async function paymentsOverHistory(
  empty: EmbeddedStack,
  full: EmbeddedStack,
  fullPool: Pool,
  settings: Settings,
  log: (line: string) => void,
): Promise<Judged[]> {
  const { durationMs, concurrency, rounds } = settings;
  const load = async (stack: EmbeddedStack, name: (subject: Subject) => Subject) => {
    const secretKey = await issueTestSecretKey(stack.url);
    const read = await readPayment(stack.url, secretKey, { durationMs, concurrency });
    const create = createPayment(stack.url, secretKey, {
      durationMs,
      concurrency,
      idempotencyKey: false,
    });
    return {
      create: warm(name(create)),
      read: warm(name(read.subject)),
      paymentId: read.object.id,
    };
  };
  const onEmpty = await load(empty, (subject) => subject);
  const onFull = await load(full, withHistory);
  await seedPaymentHistory(fullPool, onFull.paymentId, HISTORY_EVENTS, log);
  log(
    `payment create and read, empty store and ${HISTORY_EVENTS.toLocaleString('en-US')} events, alternately`,
  );
  const [create, createOverHistory, read, readOverHistory] = await measureInterleaved(
    [onEmpty.create, onFull.create, onEmpty.read, onFull.read],
    rounds,
  );
  return [
    { baseline: create!, subject: createOverHistory!, target: { kind: 'ratio', min: 0.9 } },
    { baseline: read!, subject: readOverHistory!, target: { kind: 'ratio', min: 0.9 } },
  ];
}

const withHistory = (subject: Subject): Subject => ({
  ...subject,
  name: `${subject.name}, ${HISTORY_EVENTS.toLocaleString('en-US')} events`,
});

/** Streams written per statement while seeding: one statement, one commit, bounded memory. */
const CHUNK = 20_000;
/** How long the read models may take to catch up with the seeded history. */
const CATCH_UP_LIMIT_MS = 15 * 60_000;

/**
 * Fills the store with `events` events of history: copies of the stream of one payment the
 * service created (`templateId`), each under a new payment id, written with plain SQL (the
 * service's own append would take minutes for a million events and measure nothing we need here).
 * The service then projects them like any other events, so the read model, the jobs and the
 * indexes grow with the history as they would in production. Resolves once the payments read
 * model holds the last copy and the tables have been analysed, as a long-running database's are.
 */
export async function seedPaymentHistory(
  pool: Pool,
  templateId: string,
  events: number,
  log: (line: string) => void,
): Promise<void> {
  const stream = `${PAYMENT_STREAM_PREFIX}${templateId}`;
  const { rows } = await pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM es_messages WHERE stream_name = $1',
    [stream],
  );
  const perStream = Number(rows[0]?.n ?? 0);
  if (perStream === 0) throw new Error(`history: no events in ${stream}`);

  const streams = Math.ceil(events / perStream);
  const started = Date.now();
  let lastId = templateId;
  for (let done = 0; done < streams; done += CHUNK) {
    const ids = Array.from({ length: Math.min(CHUNK, streams - done) }, () => newId('payment'));
    await pool.query(
      `INSERT INTO es_messages
         (stream_name, stream_position, message_id, message_type, message_data, message_metadata)
       SELECT $2 || id, t.stream_position, gen_random_uuid(), t.message_type,
              replace(t.message_data::text, $3, id)::jsonb,
              replace(t.message_metadata::text, $3, id)::jsonb
         FROM unnest($1::text[]) AS id
        CROSS JOIN (SELECT * FROM es_messages WHERE stream_name = $4) AS t
        ORDER BY id, t.stream_position`,
      [ids, PAYMENT_STREAM_PREFIX, templateId, stream],
    );
    lastId = ids.at(-1)!;
  }
  log(
    `history: ${(streams * perStream).toLocaleString('en-US')} events written in ${seconds(started)} s; waiting for the read models`,
  );

  // As autovacuum would before long: with the statistics of an empty table, the planner reads
  // the subscriptions' prefixed pages of a million rows badly (a forwarder caught up at ~70
  // events/s before this ANALYZE, ~28,000 after).
  await pool.query('ANALYZE');
  const projecting = Date.now();
  for (;;) {
    const found = await pool.query('SELECT 1 FROM payments WHERE id = $1', [lastId]);
    if (found.rowCount === 1) break;
    if (Date.now() - projecting > CATCH_UP_LIMIT_MS) {
      throw new Error(
        `history: the payments read model did not catch up in ${CATCH_UP_LIMIT_MS / 60_000} min`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  await settled(pool);
  await pool.query('VACUUM ANALYZE');
  // The seeding dirtied gigabytes of pages in a minute: flushed now, not by a checkpoint during
  // the measurement, whose writes and full-page WAL images would slow the first rounds.
  await pool.query('CHECKPOINT');
  log(`history: projected in ${seconds(projecting)} s`);
}

/**
 * Until no projection or forwarder has moved for a few seconds: the other subscriptions (the
 * forwarder, other read models) read past the history too, and would compete with the lines.
 */
async function settled(pool: Pool): Promise<void> {
  let last = '';
  for (let quiet = 0; quiet < 3;) {
    const { rows } = await pool.query<{ positions: string | null }>(
      `SELECT string_agg(name || '=' || coalesce(position, ''), ',' ORDER BY name) AS positions
         FROM (SELECT name, position FROM projection_checkpoints
               UNION ALL SELECT name, position FROM bus_checkpoints) AS checkpoints`,
    );
    const positions = rows[0]?.positions ?? '';
    quiet = positions === last ? quiet + 1 : 0;
    last = positions;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);
