/**
 * The migrations PostgresEventStore needs (under `prisma/migrations/`), in the order they apply.
 * The store never creates its tables: the migration runner applies these folders before the app
 * starts.
 */
export const EVENT_STORE_MIGRATIONS = [
  '20261122000100_event_store',
  '20261122000110_event_store_lean',
] as const;

/** The latest of them: a database without it has the schema of an older store. */
export const EVENT_STORE_MIGRATION = EVENT_STORE_MIGRATIONS[EVENT_STORE_MIGRATIONS.length - 1];
