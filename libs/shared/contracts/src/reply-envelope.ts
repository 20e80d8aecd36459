import {
  DomainError,
  unreachableStoreError,
  type ErrorCode,
  type ErrorDetails,
} from '@xaalis/kernel';
import { REQUESTS, type ReplyOf, type RequestOf, type RequestPattern } from './requests';
import { validateMessage, type MessageClass } from './shared/validate-message';

export interface ReplyError {
  code: ErrorCode;
  message: string;
  details?: ErrorDetails;
}

/**
 * What a request handler returns. A refusal travels as data, not as a transport error: Nest
 * would turn a thrown error into `{status: 'error', message: 'Internal server error'}` and the
 * caller would lose the code (`insufficient_funds`, `not_found`, ...).
 */
export type ReplyEnvelope<Value> = { ok: true; value: Value } | { ok: false; error: ReplyError };

/**
 * The body of every `@MessagePattern` handler: validates the payload against the pattern's
 * request class, runs `work`, and wraps the result or the DomainError in the envelope.
 * A database out of reach is `unavailable`; any other error is a bug: it is rethrown so Nest logs
 * it, and the caller gets `internal_error`.
 */
export async function reply<Pattern extends RequestPattern>(
  pattern: Pattern,
  payload: unknown,
  work: (request: RequestOf<Pattern>) => Promise<ReplyOf<Pattern>> | ReplyOf<Pattern>,
): Promise<ReplyEnvelope<ReplyOf<Pattern>>> {
  try {
    const contract = REQUESTS[pattern] as { request: MessageClass<object> };
    const request = validateMessage(contract.request, payload) as RequestOf<Pattern>;
    return { ok: true, value: await work(request) };
  } catch (error) {
    if (error instanceof DomainError) return { ok: false, error: error.toJSON() };
    // A database out of reach is no bug of the request: the caller is told to retry (503).
    const unreachable = unreachableStoreError(error);
    if (unreachable !== undefined) return { ok: false, error: unreachable.toJSON() };
    throw error;
  }
}
