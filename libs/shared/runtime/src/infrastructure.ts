import { EventStoreDBClient } from '@eventstore/db-client';
import type { Pool } from 'pg';
import { systemClock, type Clock } from '@xaalis/kernel';
import type { XaalisConfig } from '@xaalis/config';
import { EventStoreDbEventStore, PostgresEventStore, type EventStore } from '@xaalis/event-store';
import {
  createPool,
  createPrismaClient,
  resolveDatabase,
  type EmbeddedPlacement,
  runMigrations,
  type PrismaClient,
} from '@xaalis/database';
import { armFailpoints } from '@xaalis/failpoints';
import { withGeneratedSecrets } from './generated-secrets';

/** Everything an app needs from outside itself; shared by the six apps in embedded mode. */
export interface Infrastructure {
  config: XaalisConfig;
  databaseUrl: string;
  /** Where the embedded Postgres keeps its files; unset with DATABASE_URL. */
  embeddedPostgres?: EmbeddedPlacement;
  pool: Pool;
  store: EventStore;
  prisma: PrismaClient;
  clock: Clock;
  close(): Promise<void>;
}

export interface InfrastructureOptions {
  /** Shown in pg_stat_activity. */
  applicationName: string;
  clock?: Clock;
  poolSize?: number;
}

/**
 * Opens the databases the configuration names: DATABASE_URL or the embedded Postgres under
 * DATA_DIR; EVENTSTORE_URL (esdb://) or the Postgres event store. Applies pending migrations
 * first (the runner holds an advisory lock, so apps starting together do not race).
 */
export async function createInfrastructure(
  rawConfig: XaalisConfig,
  options: InfrastructureOptions,
): Promise<Infrastructure> {
  const config = withGeneratedSecrets(rawConfig);
  armFailpoints(config.failpoints);
  const database = await resolveDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
  });
  const pool = createPool(database.url, {
    applicationName: options.applicationName,
    max: options.poolSize ?? 20,
  });
  try {
    await runMigrations(pool);
  } catch (error) {
    await pool.end();
    await database.release();
    throw error;
  }
  const store: EventStore =
    config.eventStoreUrl !== undefined && config.eventStoreUrl.startsWith('esdb')
      ? new EventStoreDbEventStore(EventStoreDBClient.connectionString(config.eventStoreUrl), {
          ownsClient: true,
        })
      : new PostgresEventStore(pool);
  const prisma = createPrismaClient(pool);
  return {
    config,
    databaseUrl: database.url,
    embeddedPostgres: database.embedded,
    pool,
    store,
    prisma,
    clock: options.clock ?? systemClock,
    async close() {
      await store.close();
      await prisma.$disconnect();
      await pool.end();
      await database.release();
    },
  };
}
