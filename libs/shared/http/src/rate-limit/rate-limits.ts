import { Inject, Injectable, Optional } from '@nestjs/common';
import { CLOCK, CONFIG, type XaalisConfig } from '@xaalis/config';
import { type Clock, DomainError, systemClock } from '@xaalis/kernel';
import { EDGE_MESSAGES } from '../errors/error-response';
import { readRequestContext } from '../read-request-context';
import type { Credential } from '../request-context';
import { RateLimiter } from './rate-limiter';

/** `credential`: per API key or user, falling back to the IP for anonymous callers. */
export type RateLimitKind = 'ip' | 'credential';

/** What `enforce` needs of a request: Fastify's (proxy-aware) `ip`, and the auth context. */
export type RateLimitedRequest = object & { ip?: string };

export function rateLimited(retryAfterSeconds: number): DomainError {
  return new DomainError('rate_limited', EDGE_MESSAGES.rate_limited, {
    retry_after: retryAfterSeconds,
  });
}

/**
 * The two limiters of the edge, sized from config. The credential is known only once the auth guard
 * has run, so that guard calls `enforce(request, 'credential')` itself; `@RateLimit('ip')` covers
 * the public routes. A request is charged at most once per kind, whoever calls first.
 */
@Injectable()
export class RateLimits {
  readonly perCredential: RateLimiter;
  readonly perIp: RateLimiter;
  private readonly charged = new WeakMap<object, Set<RateLimitKind>>();

  constructor(@Inject(CONFIG) config: XaalisConfig, @Optional() @Inject(CLOCK) clock?: Clock) {
    this.perCredential = new RateLimiter(
      { perSecond: config.rateLimitPerSecond, burst: config.rateLimitBurst },
      clock ?? systemClock,
    );
    this.perIp = new RateLimiter(
      { perSecond: config.ipRateLimitPerSecond, burst: config.ipRateLimitBurst },
      clock ?? systemClock,
    );
  }

  /** Charges one request; throws `rate_limited` (429 with Retry-After) when the bucket is empty. */
  enforce(request: RateLimitedRequest, kind: RateLimitKind): void {
    const charged = this.charged.get(request) ?? new Set<RateLimitKind>();
    if (charged.has(kind)) return;
    charged.add(kind);
    this.charged.set(request, charged);

    const context = readRequestContext(request);
    const credentialKey =
      kind === 'credential' && context ? credentialKeyOf(context.credential) : undefined;
    const decision =
      credentialKey === undefined
        ? this.perIp.take(request.ip ?? context?.ip ?? 'unknown')
        : this.perCredential.take(credentialKey);
    if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds);
  }
}

/** Keys and sessions get their own bucket; a client secret or no credential counts per IP. */
export function credentialKeyOf(credential: Credential): string | undefined {
  switch (credential.kind) {
    case 'secret_key':
    case 'restricted_key':
    case 'agent_key':
      return `key:${credential.keyId}`;
    case 'session':
      return `user:${credential.userId}`;
    case 'client_secret':
    case 'anonymous':
      return undefined;
    default: {
      const unknownKind: never = credential;
      return unknownKind;
    }
  }
}
