import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { IDEMPOTENT, type IdempotentOptions } from './idempotent.metadata';
import { runIdempotently } from './idempotent-run';
import { IdempotencyStore } from './idempotency.store';

/**
 * The interceptor form of `@Idempotent` (see `IdempotentBetweenInterceptors`): it sits after the
 * guards, inside the interceptors declared before it and around those declared after it.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly store: IdempotencyStore,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const options = this.reflector.get<IdempotentOptions | undefined>(
      IDEMPOTENT,
      context.getHandler(),
    );
    if (!options || context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    return from(
      runIdempotently(
        this.store,
        http.getRequest<FastifyRequest>(),
        http.getResponse<FastifyReply>(),
        options,
        () => lastValueFrom(next.handle(), { defaultValue: undefined }),
      ),
    );
  }
}
