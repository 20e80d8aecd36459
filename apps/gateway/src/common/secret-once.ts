import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { IdempotentBetweenInterceptors, rewriteJsonBody } from '@xaalis/http';
import { isRecord } from '@xaalis/kernel';
import { map, type Observable } from 'rxjs';

const WITHHELD = Symbol('xaalis:withheld-secret');
type WithHeld = { [WITHHELD]?: string };

/**
 * A secret is shown once and "never stored or retrievable afterwards" (spec 2.7), yet the
 * issuing routes are idempotent (spec 4.4), and the idempotency store keeps response bodies to
 * replay. So the secret goes around the store: the inner interceptor takes `secret_key` out of
 * the handler's value before the store sees it, the outer one puts it back into the bytes sent.
 * A replay returns the stored key without its secret: the client learns the key exists, and the
 * secret stays in the first response only.
 */
@Injectable()
class WithholdSecret implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<WithHeld>();
    return next.handle().pipe(
      map((value: unknown) => {
        if (!isRecord(value) || typeof value.secret_key !== 'string') return value;
        const { secret_key: secret, ...rest } = value;
        request[WITHHELD] = secret;
        return rest;
      }),
    );
  }
}

@Injectable()
class RevealSecret implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<WithHeld>();
    return next.handle().pipe(
      map((body: unknown) => {
        const secret = request[WITHHELD];
        if (secret === undefined) return body;
        delete request[WITHHELD];
        return rewriteJsonBody(body, ({ previous_key: previous, ...key }) => ({
          // Field order of spec 2.7, then the roll's `previous_key`.
          ...key,
          secret_key: secret,
          ...(previous === undefined ? {} : { previous_key: previous }),
        }));
      }),
    );
  }
}

/** `@Idempotent({required: true})` for routes whose response carries a `secret_key`. */
export const IdempotentSecretIssuance = () =>
  // applyDecorators applies in order and Nest runs method interceptors in that order, outermost
  // first: reveal (outside) → idempotency → withhold (inside, next to the handler).
  applyDecorators(
    UseInterceptors(RevealSecret),
    IdempotentBetweenInterceptors({ required: true }),
    UseInterceptors(WithholdSecret),
  );
