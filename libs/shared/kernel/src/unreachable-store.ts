import { DomainError } from './errors';
import { isRecord } from './records';

/**
 * Codes that say a database could not be reached or dropped the connection (restarting, failing
 * over, out of connections), whichever client raised them: the same request may succeed when
 * retried. Known by their code alone, so nothing here imports a driver.
 */
const UNREACHABLE_CODES = new Set([
  // Node's sockets, as a client connecting to its database raises them.
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // Postgres: shutting down, crashed, starting up, out of connection slots.
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // Prisma: server not reachable, connection timed out, connection closed, no connection in time.
  'P1001',
  'P1002',
  'P1017',
  'P2024',
]);

/** EventStoreDB's client names its errors by `type`: no server, none in time, not the leader. */
const UNREACHABLE_TYPES = new Set(['unavailable', 'deadline-exceeded', 'not-leader']);

/** node-postgres loses a connection, or gives up waiting for one, with no code. */
const UNREACHABLE_MESSAGES = [/^Connection terminated/, /^timeout exceeded when trying to connect/];

/** Prisma and others wrap the driver's error; a few levels of `cause` are looked through. */
const MAX_CAUSES = 4;

/**
 * The CONTRACT 2 answer to a request that failed because a database could not be reached:
 * 503 `unavailable` with `Retry-After`, not a 500, since nothing is wrong with the request and a
 * retry (with the same idempotency key) is what the client should do. Undefined for any other
 * error. Used where an unexpected error would otherwise become `internal_error`: at the HTTP edge
 * and in a bus handler's reply.
 */
export function unreachableStoreError(error: unknown): DomainError | undefined {
  let cause = error;
  for (let depth = 0; depth <= MAX_CAUSES && isRecord(cause); depth += 1) {
    const { code, type, message } = cause;
    const unreachable =
      (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) ||
      (cause instanceof Error && typeof type === 'string' && UNREACHABLE_TYPES.has(type)) ||
      (typeof message === 'string' && UNREACHABLE_MESSAGES.some((known) => known.test(message)));
    if (unreachable) {
      return new DomainError(
        'unavailable',
        'The service cannot reach its database right now. Retry shortly.',
        { retry_after: 1 },
      );
    }
    cause = cause.cause;
  }
  return undefined;
}
