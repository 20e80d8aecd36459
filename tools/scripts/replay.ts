/**
 * `npm run replay -- <projection>|all`: rebuilds read models from the event streams, each in one
 * transaction (the service can keep running: readers see the old rows until the commit).
 * Progress goes to stderr, the closing summary to stdout.
 *
 * Database: DATABASE_URL, else the embedded Postgres under DATA_DIR (the running service's server
 * when there is one). Streams: EVENTSTORE_URL when set, else the Postgres event store.
 */
import { loadConfig, type XaalisConfig } from '@xaalis/config';
import {
  createPool,
  createPrismaClient,
  ProgressBar,
  ProjectionRunner,
  resolveDatabase,
  runMigrations,
  type Projection,
} from '@xaalis/database';
import { EventStoreDbEventStore, PostgresEventStore, type EventStore } from '@xaalis/event-store';
import type { Pool } from 'pg';
import { allProjections } from './projections';

function select(projections: Projection[], wanted: string | undefined): Projection[] {
  const known = projections.map((projection) => projection.name);
  if (wanted === undefined) {
    throw new Error(
      `usage: npm run replay -- <projection>|all (projections: ${known.join(', ') || 'none'})`,
    );
  }
  if (projections.length === 0)
    throw new Error('No projections are registered in tools/scripts/projections.ts');
  if (wanted === 'all') return projections;
  const found = projections.find((projection) => projection.name === wanted);
  if (found === undefined)
    throw new Error(`Unknown projection ${wanted} (projections: ${known.join(', ')})`);
  return [found];
}

interface Streams {
  store: EventStore;
  /** The event store's pool when it is Postgres: lets the progress bar know the total ahead. */
  pool: Pool | undefined;
  close(): Promise<void>;
}

function openStreams(config: XaalisConfig, readModelPool: Pool): Streams {
  const url = config.eventStoreUrl;
  if (url?.startsWith('esdb')) {
    const store = EventStoreDbEventStore.connect(url);
    return { store, pool: undefined, close: () => store.close() };
  }
  const pool =
    url === undefined ? readModelPool : createPool(url, { applicationName: 'xaalis-replay' });
  const store = new PostgresEventStore(pool);
  return {
    store,
    pool,
    close: async () => {
      await store.close();
      if (pool !== readModelPool) await pool.end();
    },
  };
}

/**
 * How many events a rebuild will read, for the bar. Straight from the Postgres store's table
 * (a tool may know that much); undefined when the streams live elsewhere.
 */
async function countEvents(
  pool: Pool | undefined,
  prefixes: string[],
): Promise<number | undefined> {
  if (pool === undefined) return undefined;
  const patterns = prefixes.map((prefix) => `${prefix.replace(/[\\%_]/g, (char) => `\\${char}`)}%`);
  const { rows } = await pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM es_messages WHERE stream_name LIKE ANY ($1::text[])',
    [patterns],
  );
  return Number(rows[0]!.n);
}

async function main(): Promise<void> {
  const config = loadConfig();
  const projections = select(allProjections(), process.argv[2]);
  const database = await resolveDatabase(config);
  const pool = createPool(database.url, { applicationName: 'xaalis-replay' });
  const prisma = createPrismaClient(pool);
  const streams = openStreams(config, pool);
  try {
    // The read model tables must exist before they can be refilled (what the service does at boot).
    await runMigrations(pool);
    const runner = new ProjectionRunner({
      store: streams.store,
      prisma,
      projections,
      batchSize: 1000,
    });
    const started = Date.now();
    let events = 0;
    for (const projection of projections) {
      const total = await countEvents(streams.pool, projection.streamPrefixes);
      const bar = new ProgressBar(process.stderr, projection.name, total);
      const result = await runner.rebuild(projection.name, (progress) =>
        bar.update(progress.events),
      );
      bar.finish();
      events += result.events;
    }
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? Math.round(events / seconds) : events;
    console.log(
      `Replayed ${events} events into ${projections.length} projection(s) in ${seconds.toFixed(1)} s (${rate} events/s).`,
    );
  } finally {
    await streams.close();
    await prisma.$disconnect();
    await pool.end();
    await database.release();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
