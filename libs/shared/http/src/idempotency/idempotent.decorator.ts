import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IDEMPOTENT, type IdempotentOptions } from './idempotent.metadata';

/**
 * Makes a handler idempotent per CONTRACT 3 under the `idempotency-key` header. The handler must
 * return a JSON value (or nothing, for 204): the interceptor serialises it once and stores those
 * bytes to replay.
 */
export function Idempotent(options: IdempotentOptions): MethodDecorator {
  return applyDecorators(SetMetadata(IDEMPOTENT, options), UseInterceptors(IdempotencyInterceptor));
}
