import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IdempotencyStore } from './idempotency.store';

const STORE = 'xaalisIdempotencyStore';

/** Lets `@Idempotent` handlers of this app find its store from their request (configureHttpApp). */
export function provideIdempotencyStore(fastify: FastifyInstance, store: IdempotencyStore): void {
  fastify.decorateRequest(STORE, {
    getter: () => store,
  });
}

export function idempotencyStoreOf(request: FastifyRequest): IdempotencyStore {
  const store = (request as FastifyRequest & { [STORE]?: IdempotencyStore })[STORE];
  if (store === undefined) {
    throw new Error('@Idempotent needs configureHttpApp() to have provided the idempotency store');
  }
  return store;
}
