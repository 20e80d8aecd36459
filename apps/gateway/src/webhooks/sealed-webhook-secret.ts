import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { IdempotentBetweenInterceptors, readRequestContext, rewriteJsonBody } from '@xaalis/http';
import { WebhookSecretCipher } from '@xaalis/identity';
import { isRecord } from '@xaalis/kernel';
import { map, type Observable } from 'rxjs';

/**
 * A rolled webhook secret is shown once, yet its route is idempotent and the idempotency store
 * keeps response bodies to replay. Unlike an API key's secret (only hashed, so a replay leaves it
 * out), this one is kept encrypted anyway for signing, so the stored body carries it encrypted in
 * the same way: the inner interceptor seals `webhook_secret` before the store sees the value, the
 * outer one opens it in the bytes sent. The first response and a replay are then the same, and
 * no table ever holds the secret in clear.
 */
@Injectable()
class SealWebhookSecret implements NestInterceptor {
  constructor(private readonly cipher: WebhookSecretCipher) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const merchantId = merchantIdOf(context);
    return next
      .handle()
      .pipe(
        map((value: unknown) =>
          isRecord(value) && typeof value.webhook_secret === 'string'
            ? { ...value, webhook_secret: this.cipher.encrypt(value.webhook_secret, merchantId) }
            : value,
        ),
      );
  }
}

@Injectable()
class OpenWebhookSecret implements NestInterceptor {
  constructor(private readonly cipher: WebhookSecretCipher) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const merchantId = merchantIdOf(context);
    return next
      .handle()
      .pipe(
        map((body: unknown) =>
          rewriteJsonBody(body, (sent) =>
            typeof sent.webhook_secret === 'string'
              ? { ...sent, webhook_secret: this.cipher.decrypt(sent.webhook_secret, merchantId) }
              : undefined,
          ),
        ),
      );
  }
}

/** `@Idempotent({required: true})` for routes whose response carries a `webhook_secret`. */
export const IdempotentWebhookSecretIssuance = () =>
  // Outermost first, as in secret-once.ts: open (outside) → idempotency → seal (next to the handler).
  applyDecorators(
    UseInterceptors(OpenWebhookSecret),
    IdempotentBetweenInterceptors({ required: true }),
    UseInterceptors(SealWebhookSecret),
  );

function merchantIdOf(context: ExecutionContext): string {
  const merchantId = readRequestContext(context.switchToHttp().getRequest<object>())?.merchantId;
  // The session guard sets it on every /merchants/{merchantId}/… route, before any interceptor.
  if (!merchantId) throw new Error('IdempotentWebhookSecretIssuance used without a merchantId');
  return merchantId;
}
