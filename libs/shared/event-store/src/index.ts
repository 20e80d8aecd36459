export * from './event-store';
export { InMemoryEventStore } from './in-memory-event-store';
export { foldFacts } from './aggregate-stream';
export {
  PostgresEventStore,
  appendToStreamIn,
  APPEND_CHANNEL,
  type Queryable,
} from './postgres-event-store';
export {
  EventStoreDbEventStore,
  type EventStoreDbEventStoreOptions,
} from './eventstoredb-event-store';
export {
  handleCommand,
  type DeciderEvent,
  type CachedCommandOptions,
  type CommandOptions,
  type DecidedCreation,
  type HandleCommandOptions,
  type HandleCommandResult,
} from './handle-command';
export {
  subscribe,
  type SubscribeOptions,
  type Subscription,
  type SubscriptionLogger,
} from './catch-up-subscription';
export { DEFAULT_READ_SPACING_MS, ReadPacer, sleep } from './read-pacer';
export { EVENT_STORE_MIGRATION } from './migration';
export { matchesPrefixes } from './prepare-events';
export * from './fold-cache';
export { StreamTurns } from './stream-turns';
