/**
 * The migration PostgresEventStore needs (under `prisma/migrations/`). The store never creates
 * its tables: the migration runner applies this folder before the app starts.
 */
export const EVENT_STORE_MIGRATION = '20261122000100_event_store';
