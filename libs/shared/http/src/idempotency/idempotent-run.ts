import { Logger } from '@nestjs/common';
import { failpoint } from '@xaalis/failpoints';
import { DomainError } from '@xaalis/kernel';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from '../errors/error-response';
import { JSON_CONTENT_TYPE } from '../errors/send-json';
import { readRequestContext } from '../read-request-context';
import type { IdempotentOptions } from './idempotent.metadata';
import { IDEMPOTENCY_KEY_HEADER, readIdempotencyKey } from './idempotency-key';
import type { IdempotencyScope, IdempotencyStore, IdempotentRequest } from './idempotency.store';
import { fingerprintOf, operationOf } from './request-fingerprint';
import { reserveObjectIds } from './new-ids';

export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

const logger = new Logger('Idempotency');

/**
 * Runs `handle` at most once per idempotency key (CONTRACT 3), for both forms of `@Idempotent`:
 * with a key, its first outcome is stored as the bytes sent, and a retry gets those bytes again
 * (`Idempotent-Replayed: true`); the same key with another operation or body, or while the first
 * request runs, is a 409. Without a key (where it is optional) `handle` just runs.
 *
 * Resolves with what to send: the handler's value when no key was given, else the serialised
 * body (the stored bytes), with the content type set.
 */
export async function runIdempotently(
  store: IdempotencyStore,
  request: FastifyRequest,
  reply: FastifyReply,
  options: IdempotentOptions,
  handle: () => unknown,
): Promise<unknown> {
  // Node joins a repeated header into one value ("a, b"); the distinct values tell it was repeated.
  const key = readIdempotencyKey(
    request.raw.headersDistinct[IDEMPOTENCY_KEY_HEADER],
    options.required,
  );
  if (key === undefined) return handle();

  const keyed: IdempotentRequest = {
    ...scopeOf(request, key),
    operation: operationOf(request),
    requestHash: fingerprintOf(request),
  };
  const begun = await store.begin(keyed);
  switch (begun.kind) {
    case 'conflict':
      throw conflict(begun.reason);
    case 'replay':
      reply.code(begun.statusCode).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return asReplyBody(reply, begun.body);
    case 'started':
      break;
  }
  reserveObjectIds(request, begun.objectUlid);
  failpoint('idempotency.after_claim');
  let value: unknown;
  try {
    value = await handle();
  } catch (error) {
    // A failure the client caused for good (404, 402, 409 …) is stored and replayed like a
    // success, as its envelope: the filter writes the same bytes from the same function.
    // Refusals that changed nothing (400, 401, 429) are forgotten, so the key is free again. A
    // 5xx may have had its effect: the key is released for a retry that makes the same ids.
    const outcome = toErrorResponse(error);
    if (isReplayable(outcome.status)) {
      storeOutcome(store, keyed, begun.lockToken, outcome.status, JSON.stringify(outcome.body));
    } else if (outcome.status >= 500) {
      await store.release(keyed, begun.lockToken);
    } else {
      await store.forget(keyed, begun.lockToken);
    }
    throw error;
  }
  // The handler's value, serialised once: these bytes are sent now and replayed later.
  const body = value === undefined ? '' : JSON.stringify(value);
  failpoint('idempotency.before_complete');
  storeOutcome(store, keyed, begun.lockToken, reply.statusCode, body);
  return asReplyBody(reply, body);
}

/**
 * Stores the outcome while the answer goes out (the store says why that is safe). Not stored —
 * the lease taken over, the database gone — the key is left to a retry, which makes the same ids.
 */
function storeOutcome(
  store: IdempotencyStore,
  request: IdempotentRequest,
  lockToken: string,
  status: number,
  body: string,
): void {
  const where = `(${request.mode}, ${request.merchantId})`;
  store.complete(request, lockToken, status, body).then(
    (stored) => {
      if (!stored) logger.warn(`Idempotency key outlived its lease and was taken over ${where}`);
    },
    (error: unknown) => logger.error(`Idempotency outcome not stored ${where}: ${String(error)}`),
  );
}

function isReplayable(status: number): boolean {
  return status < 500 && status !== 400 && status !== 401 && status !== 429;
}

/**
 * CONTRACT 3 scopes keys by (merchant, mode). Public routes (the exchange) have no merchant: their
 * keys share one scope, which is safe since a replay also needs the identical body.
 */
function scopeOf(request: FastifyRequest, key: string): IdempotencyScope {
  const context = readRequestContext(request);
  return { merchantId: context?.merchantId ?? 'public', mode: context?.mode ?? 'test', key };
}

function asReplyBody(reply: FastifyReply, body: string): string | undefined {
  if (body === '') return undefined;
  reply.header('content-type', JSON_CONTENT_TYPE);
  return body;
}

function conflict(reason: 'other_request' | 'in_progress'): DomainError {
  return reason === 'in_progress'
    ? new DomainError(
        'idempotency_conflict',
        'A request with this idempotency key is still being processed. Retry later.',
      )
    : new DomainError(
        'idempotency_conflict',
        `This ${IDEMPOTENCY_KEY_HEADER} was already used for another operation or body. Use a new key for a new request.`,
      );
}
