import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type RateLimitedRequest, type RateLimitKind, RateLimits } from './rate-limits';

export const RATE_LIMIT = 'xaalis:rate-limit';

/**
 * Charges the request to a bucket before the handler. On a method it runs after the controller's
 * guards, so `@RateLimit('credential')` there sees what the auth guard set.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly rateLimits: RateLimits,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const kind =
      this.reflector.getAllAndOverride<RateLimitKind | undefined>(RATE_LIMIT, [
        context.getHandler(),
        context.getClass(),
      ]) ?? 'credential';
    await this.rateLimits.charge(context.switchToHttp().getRequest<RateLimitedRequest>(), kind);
    return true;
  }
}

/** `@RateLimit('ip')` on public and sign-in/sign-up routes; `'credential'` after an auth guard. */
export function RateLimit(kind: RateLimitKind): ClassDecorator & MethodDecorator {
  return applyDecorators(SetMetadata(RATE_LIMIT, kind), UseGuards(RateLimitGuard));
}
