export type { FailureKind, FakeNotification, RecordedRequest } from './fake-http-server';
export * from './fake-wave';
export * from './fake-orange-money';
export * from './warm-up-fetch';
