import { HttpException } from '@nestjs/common';
import {
  DomainError,
  unreachableStoreError,
  type ErrorCode,
  type ErrorDetails,
} from '@xaalis/kernel';
import { statusFor } from './status-for';

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details?: ErrorDetails };
}

/** What the edge answers for a failure: status, body and the headers that go with it. */
export interface ErrorResponse {
  status: number;
  body: ErrorEnvelope;
  headers: Record<string, string>;
  /** True when the failure is ours, not the client's: it is logged, and its message hidden. */
  unexpected: boolean;
}

export const INTERNAL_ERROR_MESSAGE = 'An unexpected error occurred. Please try again later.';

/**
 * Messages for the failures Nest and Fastify raise themselves (unknown route, body too large, wrong
 * media type): theirs name internals ("Cannot GET /x", "FST_ERR_CTP_…"), ours tell the client what
 * to change.
 */
export const EDGE_MESSAGES = {
  not_found: 'No such resource or route.',
  payload_too_large: 'The request body is larger than the 1 MiB limit.',
  unsupported_media_type: 'Request bodies must be JSON, sent with Content-Type: application/json.',
  rate_limited: 'Too many requests. Retry after the number of seconds in the Retry-After header.',
  unavailable: 'The service is unavailable. Please try again later.',
} satisfies Partial<Record<ErrorCode, string>>;

/** The status a framework error keeps, when the contract has a code for it. */
const CODE_BY_HTTP_STATUS: Record<number, ErrorCode> = {
  400: 'validation_error',
  401: 'authentication_required',
  403: 'forbidden',
  404: 'not_found',
  405: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

/**
 * Turns anything thrown while serving a request into the CONTRACT 2 envelope. Shared by the
 * exception filter and the idempotency layer, so a stored failure replays with the same bytes the
 * filter first wrote.
 */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof DomainError) return fromDomainError(error);
  const unreachable = unreachableStoreError(error);
  if (unreachable !== undefined) {
    // Logged as a failure of ours (in one line, see the filter), but the client is told to retry.
    return { ...fromDomainError(unreachable), unexpected: true };
  }
  const status = httpStatusOf(error);
  const code = status === undefined ? undefined : CODE_BY_HTTP_STATUS[status];
  if (status !== undefined && code !== undefined) {
    const standard: Partial<Record<ErrorCode, string>> = EDGE_MESSAGES;
    const message = standard[code] ?? clientMessageOf(error) ?? 'The request is invalid.';
    return respond(code, message, undefined, false);
  }
  if (status !== undefined && status < 500) {
    // A 4xx the contract has no code for (406, 408, …): still the client's fault.
    return respond('validation_error', 'The request is invalid.', undefined, false);
  }
  return respond('internal_error', INTERNAL_ERROR_MESSAGE, undefined, true);
}

function fromDomainError(error: DomainError): ErrorResponse {
  if (error.code === 'internal_error') {
    return respond('internal_error', INTERNAL_ERROR_MESSAGE, undefined, true);
  }
  return respond(error.code, error.message, error.details, false);
}

function respond(
  code: ErrorCode,
  message: string,
  details: ErrorDetails | undefined,
  unexpected: boolean,
): ErrorResponse {
  const headers: Record<string, string> = {};
  // CONTRACT 2: a 429 always says when to retry; a 503 does when it knows (a busy stream).
  if (code === 'rate_limited' || (code === 'unavailable' && hasRetryAfter(details))) {
    headers['retry-after'] = String(retryAfterSeconds(details));
  }
  const body: ErrorEnvelope = {
    error: details === undefined ? { code, message } : { code, message, details },
  };
  return { status: statusFor(code), body, headers, unexpected };
}

function hasRetryAfter(details: ErrorDetails | undefined): boolean {
  return details !== undefined && !Array.isArray(details) && 'retry_after' in details;
}

/** `details.retry_after` (seconds) travels with a rate_limited DomainError; at least 1. */
function retryAfterSeconds(details: ErrorDetails | undefined): number {
  const value =
    details !== undefined && !Array.isArray(details) ? details['retry_after'] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(1, Math.ceil(value)) : 1;
}

/** HttpException, or a Fastify / http-errors error that carries a 4xx statusCode. */
function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof HttpException) return error.getStatus();
  if (error instanceof Error) {
    const status = (error as Error & { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) return status;
  }
  return undefined;
}

/**
 * A 400/401/403 HttpException comes from gateway code (a guard, a Nest pipe) and its message was
 * written for the client. Nothing else's message is echoed.
 */
function clientMessageOf(error: unknown): string | undefined {
  if (!(error instanceof HttpException)) return undefined;
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message) && message.every((item) => typeof item === 'string')) {
    return message.join('; ');
  }
  return undefined;
}
