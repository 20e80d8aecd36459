import { DomainError, type Clock } from '@xaalis/kernel';
import type { FetchFn } from './provider-http';

export interface ProviderOptions {
  /** `providerTimeoutMs`: a call taking longer is an unknown outcome, never a failure. */
  timeoutMs: number;
  /** Global `fetch` unless given. */
  fetch?: FetchFn;
  /** The wall clock unless given; only token lifetimes read it. */
  clock?: Clock;
}

/** Money is integer XOF: anything else is a caller's bug, refused before a provider sees it. */
export function assertXofAmount(field: string, amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new DomainError('validation_error', `${field} must be a positive integer XOF amount.`, [
      { field, issue: 'must be a positive integer' },
    ]);
  }
}
