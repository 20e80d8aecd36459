import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { Logger } from '@nestjs/common';
import { DomainError } from '@xaalis/kernel';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EDGE_MESSAGES, toErrorResponse } from '../errors/error-response';
import { JSON_CONTENT_TYPE, sendJson } from '../errors/send-json';
import { REQUEST_ID_HEADER } from './request-id';

/** Fastify's `requestTimeout`, which its documentation puts at 120 s for a server facing clients. */
export const REQUEST_TIMEOUT_MS = 120_000;

/**
 * Fastify's `frameworkErrors`: what its router refuses before any hook or handler runs, as
 * CONTRACT 2 says. A path that is not percent-encoded UTF-8 (FST_ERR_BAD_URL) or has a segment
 * over 255 characters (FST_ERR_MAX_PARAM_LENGTH) names no object: 404.
 *
 * This replaces Nest's own `frameworkErrors`, which only adds the headers of
 * `app.useSecurityHeaders()` / `enableCsrfProtection()`, features no app here enables.
 */
export function answerFrameworkError(
  error: Error & { code?: string },
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const known = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const outcome = toErrorResponse(
    known ? new DomainError('not_found', EDGE_MESSAGES.not_found) : error,
  );
  if (outcome.unexpected) {
    logger.error(`Unexpected router error on ${request.method} (${request.id})`, error.stack);
  }
  // The router refuses before any hook runs, the one that names the request included.
  reply.header(REQUEST_ID_HEADER, request.id);
  sendJson(reply, outcome.status, JSON.stringify(outcome.body), outcome.headers);
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before Fastify sees a request
 * (malformed HTTP, an unknown method, headers over Node's limit, a request not received in full
 * within REQUEST_TIMEOUT_MS). Answered as Node would, on the socket, then closed, but with the
 * CONTRACT 2 envelope. A client already gone gets nothing.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const outcome = toErrorResponse(new DomainError('validation_error', clientErrorMessage(error)));
  const body = JSON.stringify(outcome.body);
  socket.write(
    `HTTP/1.1 ${outcome.status} ${STATUS_CODES[outcome.status]}\r\n` +
      `Content-Type: ${JSON_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
  socket.destroy();
}

function clientErrorMessage(error: Error & { code?: string }): string {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return `The request line and headers are larger than the ${maxHeaderSize / 1024} KiB limit.`;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return `The request was not received in full within ${REQUEST_TIMEOUT_MS / 1000} seconds.`;
    default:
      return 'The request is not well-formed HTTP/1.1.';
  }
}

const logger = new Logger('HttpErrors');
