import { EmptyError, firstValueFrom, timeout, TimeoutError, type Observable } from 'rxjs';
import { DomainError, isErrorCode, isRecord } from '@xaalis/kernel';
import { REQUESTS, type ReplyOf, type RequestOf, type RequestPattern } from './requests';
import { validateMessage, type MessageClass } from './shared/validate-message';

/** The part of a Nest `ClientProxy` a caller needs; keeps this library free of Nest. */
export interface BusRequester {
  send<Result, Input>(pattern: string, data: Input): Observable<Result>;
  /** True when the replies come from this very build (the in-process bus): not re-validated. */
  readonly trustedReplies?: boolean;
  /**
   * The same exchange as `send` as one promise, where the transport can answer that way (the
   * in-process bus): no Observable pipeline per request. Rejects with what `send` would emit as
   * its error.
   */
  ask?(pattern: string, data: unknown): Promise<unknown>;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;

/**
 * Sends a request to the pattern's owner and returns its validated reply. A refusal comes back
 * as the owner's DomainError, code intact. No answer in time, or no owner listening, is
 * `unavailable`; an owner that crashed or broke the reply contract is `internal_error`.
 */
export async function request<Pattern extends RequestPattern>(
  client: BusRequester,
  pattern: Pattern,
  payload: RequestOf<Pattern>,
  options: { timeoutMs?: number } = {},
): Promise<ReplyOf<Pattern>> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  let envelope: unknown;
  try {
    envelope =
      client.ask !== undefined
        ? await withTimeout(client.ask(pattern, payload), timeoutMs)
        : await firstValueFrom(
            client
              .send<unknown, RequestOf<Pattern>>(pattern, payload)
              .pipe(timeout({ first: timeoutMs })),
          );
  } catch (error) {
    throw transportFailure(error);
  }
  return unwrap(pattern, envelope, client.trustedReplies === true);
}

/**
 * `answer`, or a TimeoutError once `ms` have passed without it. One promise and one reaction,
 * where `Promise.race` with a timer promise and `finally` make six: this is on every request.
 */
function withTimeout<T>(answer: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimeoutError()), ms);
    answer.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function unwrap<Pattern extends RequestPattern>(
  pattern: Pattern,
  envelope: unknown,
  trusted: boolean,
): ReplyOf<Pattern> {
  if (!isRecord(envelope)) throw internalError();
  if (envelope.ok === true && trusted) return envelope.value as ReplyOf<Pattern>;
  if (envelope.ok === true) {
    try {
      const contract = REQUESTS[pattern] as { reply: MessageClass<object> };
      return validateMessage(contract.reply, envelope.value) as ReplyOf<Pattern>;
    } catch {
      throw internalError();
    }
  }
  const error = envelope.error;
  if (envelope.ok === false && isRecord(error) && isErrorCode(error.code)) {
    const message = typeof error.message === 'string' ? error.message : 'The request failed.';
    const details =
      isRecord(error.details) || Array.isArray(error.details) ? error.details : undefined;
    throw new DomainError(error.code, message, details as DomainError['details']);
  }
  throw internalError();
}

/**
 * Nest reports a handler's unexpected exception as `{status: 'error', message}`; everything else
 * on the error channel (timeout, no handler, connection closed) means nobody answered.
 */
function transportFailure(error: unknown): DomainError {
  if (isRecord(error) && error.status === 'error') return internalError();
  if (error instanceof TimeoutError || error instanceof EmptyError) {
    return new DomainError('unavailable', 'The service did not answer in time. Try again later.');
  }
  return new DomainError('unavailable', 'The service is unavailable. Try again later.');
}

const internalError = () => new DomainError('internal_error', 'Internal error.');
