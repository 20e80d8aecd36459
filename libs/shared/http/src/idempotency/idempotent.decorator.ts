import { applyDecorators, Req, Res, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IDEMPOTENT, type IdempotentOptions } from './idempotent.metadata';
import { runIdempotently } from './idempotent-run';
import { idempotencyStoreOf } from './idempotency-store-of';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../validation/validators';
import { IDEMPOTENCY_KEY_HEADER } from './idempotency-key';

/**
 * Makes a handler idempotent per CONTRACT 3 under the `idempotency-key` header. The handler must
 * return a JSON value (or nothing, for 204): it is serialised once, and those bytes are stored to
 * replay.
 *
 * The handler is wrapped, rather than given an interceptor: any interceptor puts the route on
 * Nest's Observable path (deferred chains, client-disconnect listeners), which was about a tenth of
 * a payment creation's CPU. The wrapper asks Nest for the request and reply as two extra arguments
 * after the handler's own, and runs after the guards and pipes, so a request refused by them never
 * takes a key. Routes that need interceptors on both sides of the idempotency layer use
 * `IdempotentBetweenInterceptors`.
 */
export function Idempotent(options: IdempotentOptions): MethodDecorator {
  return (target, method, descriptor: PropertyDescriptor) => {
    SetMetadata(IDEMPOTENT, options)(target, method, descriptor);
    idempotencyKeyHeader(options)(target, method, descriptor);
    const handler = descriptor.value as (...args: unknown[]) => unknown;
    const own = handlerArity(target, method, handler);
    Req()(target, method, own);
    Res({ passthrough: true })(target, method, own + 1);
    const wrapped = function (this: unknown, ...args: unknown[]) {
      const request = args[own] as FastifyRequest;
      const reply = args[own + 1] as FastifyReply;
      return runIdempotently(idempotencyStoreOf(request), request, reply, options, () =>
        handler.apply(this, args.slice(0, own)),
      );
    };
    // What other decorators put on the handler (route, status, OpenAPI, scopes) stays on it.
    for (const key of Reflect.getOwnMetadataKeys(handler)) {
      Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, handler), wrapped);
    }
    Object.defineProperty(wrapped, 'name', { value: handler.name });
    descriptor.value = wrapped;
  };
}

/**
 * The interceptor form, for routes with interceptors on both sides of the idempotency layer: a
 * secret taken out of the value before it is stored, and put back into the bytes sent
 * (secret-once.ts, sealed-webhook-secret.ts). Same rules, same code (`runIdempotently`).
 */
export function IdempotentBetweenInterceptors(options: IdempotentOptions): MethodDecorator {
  return applyDecorators(
    SetMetadata(IDEMPOTENT, options),
    idempotencyKeyHeader(options),
    UseInterceptors(IdempotencyInterceptor),
  );
}

/** The header in the OpenAPI document, as `readIdempotencyKey` takes it. */
function idempotencyKeyHeader(options: IdempotentOptions): MethodDecorator {
  return ApiHeader({
    name: IDEMPOTENCY_KEY_HEADER,
    required: options.required,
    description:
      'CONTRACT 3: a retry with the same key and body replays the first answer (`idempotent-replayed: true`); the same key with another body is 409 `idempotency_conflict`.',
    // Printable ASCII and space, as `readIdempotencyKey` checks.
    schema: {
      type: 'string',
      minLength: 1,
      maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
      pattern: '^[\\x20-\\x7E]+$',
    },
  });
}

/** The handler's own parameters, as TypeScript recorded them (default values included). */
function handlerArity(
  target: object,
  method: string | symbol,
  handler: (...args: unknown[]) => unknown,
): number {
  const types: unknown = Reflect.getMetadata('design:paramtypes', target, method);
  return Array.isArray(types) ? types.length : handler.length;
}
