import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  Logger,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '@xaalis/kernel';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catchError, from, mergeMap, type Observable, of } from 'rxjs';
import { toErrorResponse } from '../errors/error-response';
import { JSON_CONTENT_TYPE } from '../errors/send-json';
import { readRequestContext } from '../read-request-context';
import { IDEMPOTENT, type IdempotentOptions } from './idempotent.metadata';
import { IDEMPOTENCY_KEY_HEADER, readIdempotencyKey } from './idempotency-key';
import { type IdempotencyScope, IdempotencyStore } from './idempotency.store';
import { fingerprintOf, operationOf } from './request-fingerprint';

export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

/**
 * Runs an `@Idempotent` handler at most once per key (CONTRACT 3). It sits after the guards, so the
 * scope (merchant, mode) is known, and around the pipes, so a 400 from validation is seen and
 * not stored.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly reflector: Reflector,
    private readonly store: IdempotencyStore,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const options = this.reflector.get<IdempotentOptions | undefined>(
      IDEMPOTENT,
      context.getHandler(),
    );
    if (!options || context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const key = readIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER], options.required);
    if (key === undefined) return next.handle();

    const scope = scopeOf(request, key);
    const begun = await this.store.begin({
      ...scope,
      operation: operationOf(request),
      requestHash: fingerprintOf(request),
    });
    switch (begun.kind) {
      case 'conflict':
        throw conflict(begun.reason);
      case 'replay':
        reply.code(begun.statusCode).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
        return of(asReplyBody(reply, begun.body));
      case 'started':
        return next.handle().pipe(
          catchError((error: unknown) => from(this.settleFailure(scope, begun.lockToken, error))),
          mergeMap((value) => from(this.settleSuccess(scope, begun.lockToken, reply, value))),
        );
    }
  }

  /** The handler's value, serialised once: these bytes are sent now and replayed later. */
  private async settleSuccess(
    scope: IdempotencyScope,
    lockToken: string,
    reply: FastifyReply,
    value: unknown,
  ): Promise<string | undefined> {
    const body = value === undefined ? '' : JSON.stringify(value);
    await this.completeOrWarn(scope, lockToken, reply.statusCode, body);
    return asReplyBody(reply, body);
  }

  /**
   * A failure the client caused for good (404, 402, 409 …) is stored and replayed like a success,
   * as its envelope: the filter writes the same bytes from the same function. Validation (400),
   * authentication (401) and transient failures (429, 5xx) are forgotten so that a retry runs.
   */
  private async settleFailure(
    scope: IdempotencyScope,
    lockToken: string,
    error: unknown,
  ): Promise<never> {
    const outcome = toErrorResponse(error);
    if (isReplayable(outcome.status)) {
      await this.completeOrWarn(scope, lockToken, outcome.status, JSON.stringify(outcome.body));
    } else {
      await this.store.release(scope, lockToken);
    }
    throw error;
  }

  private async completeOrWarn(
    scope: IdempotencyScope,
    lockToken: string,
    status: number,
    body: string,
  ) {
    const stored = await this.store.complete(scope, lockToken, status, body);
    if (!stored) {
      this.logger.warn(
        `Idempotency key outlived its lease and was taken over (${scope.mode}, ${scope.merchantId})`,
      );
    }
  }
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
