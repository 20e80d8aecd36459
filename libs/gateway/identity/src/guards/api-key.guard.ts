import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type Credential, RateLimits, type XaalisRequest } from '@xaalis/http';
import { assertNever, forbidden, type Mode } from '@xaalis/kernel';
import type { FastifyRequest } from 'fastify';
import { scopesAllow } from '@xaalis/identity-domain';
import type { CachedKey } from '../api-keys/api-key-cache';
import { ApiKeyAuthenticator, invalidApiKey } from '../api-keys/api-key.authenticator';
import { REQUIRED_SCOPE, type RequiredScope } from './auth.metadata';

const AGENT_PATH = /^\/v1\/agent(\/|$)/;

/**
 * `/v1/...`: authenticates the bearer key, charges its rate limit, then checks what it may
 * reach. Authentication failures are all the same 401; a known key without the permission is
 * 403 (spec 5 rule 4).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly rateLimits: RateLimits,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest & XaalisRequest>();
    const key = await this.authenticator.authenticate(bearerSecret(request.headers.authorization));
    request.xaalis = {
      credential: credentialOf(key),
      merchantId: key.merchantId,
      mode: key.mode as Mode,
      ip: request.ip,
    };
    // Charged before the permission checks: a key hammering routes it may not use is limited too.
    await this.rateLimits.charge(request, 'credential');

    // The route the router matched, not the request target: that may be in absolute form
    // (`GET http://host/v1/agent/wallet`, RFC 9112), which the router serves all the same.
    const agentPath = AGENT_PATH.test(request.routeOptions.url ?? '');
    if ((key.kind === 'agent') !== agentPath) {
      throw forbidden(
        agentPath
          ? 'Only an agent key may call /v1/agent.'
          : 'An agent key may only call /v1/agent.',
      );
    }
    if (key.kind === 'restricted') {
      const required = this.reflector.getAllAndOverride<RequiredScope | undefined>(REQUIRED_SCOPE, [
        context.getHandler(),
        context.getClass(),
      ]);
      if (!required || !scopesAllow(key.scopes, required.resource, required.access)) {
        throw forbidden(
          required
            ? `This restricted key lacks the ${required.resource}:${required.access} scope.`
            : 'Restricted keys may not call this operation.',
        );
      }
    }
    return true;
  }
}

function bearerSecret(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1];
}

function credentialOf(key: CachedKey): Credential {
  switch (key.kind) {
    case 'secret':
      return { kind: 'secret_key', keyId: key.keyId };
    case 'restricted':
      return { kind: 'restricted_key', keyId: key.keyId, scopes: key.scopes };
    case 'agent':
      // An agent key always belongs to a wallet; a lookup that lost it names no usable key.
      if (!key.agentWalletId) throw invalidApiKey();
      return { kind: 'agent_key', keyId: key.keyId, agentWalletId: key.agentWalletId };
    default:
      return assertNever(key.kind);
  }
}
