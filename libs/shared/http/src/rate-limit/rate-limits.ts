import { Inject, Injectable, Optional } from '@nestjs/common';
import { CONFIG, PG_POOL, type XaalisConfig } from '@xaalis/config';
import { DomainError } from '@xaalis/kernel';
import type { Pool } from 'pg';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { EDGE_MESSAGES } from '../errors/error-response';
import { readRequestContext } from '../read-request-context';
import type { Credential } from '../request-context';
import {
  memoryRateLimiter,
  postgresRateLimiter,
  type TokenBucketLimits,
  take,
} from './rate-limiter';

/** `credential`: per API key or user, falling back to the IP for anonymous callers. */
export type RateLimitKind = 'ip' | 'credential';

/** What `charge` needs of a request: Fastify's (proxy-aware) `ip`, and the auth context. */
export type RateLimitedRequest = object & { ip?: string };

export function rateLimited(retryAfterSeconds: number): DomainError {
  return new DomainError('rate_limited', EDGE_MESSAGES.rate_limited, {
    retry_after: retryAfterSeconds,
  });
}

/**
 * The two limiters of the edge, sized from config. The credential is known only once the auth guard
 * has run, so that guard charges it itself; `@RateLimit('ip')` covers the public routes. A request is
 * charged at most once per kind, whoever asks first.
 */
@Injectable()
export class RateLimits {
  readonly perCredential: RateLimiterAbstract;
  readonly perIp: RateLimiterAbstract;
  private readonly charges = new WeakMap<object, Map<RateLimitKind, Promise<void>>>();

  constructor(@Inject(CONFIG) config: XaalisConfig, @Optional() @Inject(PG_POOL) pool?: Pool) {
    // With Kafka the gateway may run as several replicas on one database, and a limit must hold
    // across them; the embedded mode is one process, whose memory is the whole truth.
    const limiterOf = (limits: TokenBucketLimits, kind: RateLimitKind) =>
      config.kafkaBrokers && pool
        ? postgresRateLimiter(limits, kind, pool)
        : memoryRateLimiter(limits, kind);
    this.perCredential = limiterOf(
      { perSecond: config.rateLimitPerSecond, burst: config.rateLimitBurst },
      'credential',
    );
    this.perIp = limiterOf(
      { perSecond: config.ipRateLimitPerSecond, burst: config.ipRateLimitBurst },
      'ip',
    );
  }

  /** Charges one request; rejects with `rate_limited` (429 with Retry-After) when it is over. */
  charge(request: RateLimitedRequest, kind: RateLimitKind): Promise<void> {
    const charges = this.charges.get(request) ?? new Map<RateLimitKind, Promise<void>>();
    this.charges.set(request, charges);
    const earlier = charges.get(kind);
    if (earlier) return earlier;
    const charge = this.chargeOnce(request, kind);
    charges.set(kind, charge);
    return charge;
  }

  private async chargeOnce(request: RateLimitedRequest, kind: RateLimitKind): Promise<void> {
    const context = readRequestContext(request);
    const credentialKey =
      kind === 'credential' && context ? credentialKeyOf(context.credential) : undefined;
    const decision =
      credentialKey === undefined
        ? await take(this.perIp, request.ip ?? context?.ip ?? 'unknown')
        : await take(this.perCredential, credentialKey);
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
