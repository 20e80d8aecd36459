import { newId } from '@xaalis/kernel';

/**
 * The response header that names each request (`req_…`), as Stripe's `Request-Id` does: a client
 * quotes it, and an operator finds the request's log line by it.
 */
export const REQUEST_ID_HEADER = 'request-id';

/** Fastify's `genReqId`: an id of ours for every request, never one the client sent. */
export const newRequestId = (): string => newId('request');
