import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { RateLimits, XaalisRequest } from '@xaalis/http';
import { DomainError } from '@xaalis/kernel';
import type { CachedKey } from '../api-keys/api-key-cache';
import type { ApiKeyAuthenticator } from '../api-keys/api-key.authenticator';
import { ApiKeyGuard } from './api-key.guard';
import { RequireScope } from './auth.metadata';

class Routes {
  @RequireScope('payments', 'write')
  writePayments() {}

  @RequireScope('payments', 'read')
  readPayments() {}

  unscoped() {}
}

const key = (overrides: Partial<CachedKey>): CachedKey => ({
  keyId: 'key_1',
  merchantId: 'mer_1',
  mode: 'test',
  kind: 'secret',
  scopes: [],
  secretHash: 'h',
  revokedAt: null,
  scheduledRevokeAt: null,
  ...overrides,
});

/** `route` is what the router matched; the target is sent in absolute form, which it serves too. */
function run(found: CachedKey, handler: keyof Routes, route: string) {
  const charge = jest.fn(async () => undefined);
  const guard = new ApiKeyGuard(
    new Reflector(),
    { authenticate: async () => found } as unknown as ApiKeyAuthenticator,
    { charge } as unknown as RateLimits,
  );
  const request: XaalisRequest & Record<string, unknown> = {
    url: `http://api.xaalis.test${route}?x=1`,
    routeOptions: { url: route },
    ip: '203.0.113.9',
    headers: { authorization: 'Bearer sk_test_x' },
  };
  const context = {
    switchToHttp: () => ({ getRequest: () => request }),
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
  } as unknown as ExecutionContext;
  return { result: guard.canActivate(context), request, charge };
}

const refusal = async (promise: Promise<boolean>) => {
  const error = await promise.catch((caught: unknown) => caught);
  return error instanceof DomainError ? error.code : error;
};

describe('ApiKeyGuard', () => {
  it('lets a secret key through anywhere under /v1 but /v1/agent, sets the context, charges the limit', async () => {
    const { result, request, charge } = run(key({}), 'unscoped', '/v1/account');
    await expect(result).resolves.toBe(true);
    expect(request.xaalis).toEqual({
      credential: { kind: 'secret_key', keyId: 'key_1' },
      merchantId: 'mer_1',
      mode: 'test',
      ip: '203.0.113.9',
    });
    expect(charge).toHaveBeenCalledWith(request, 'credential');
    expect(await refusal(run(key({}), 'unscoped', '/v1/agent/payouts').result)).toBe('forbidden');
  });

  it('keeps agent keys to /v1/agent', async () => {
    const agent = key({ kind: 'agent', agentWalletId: 'aw_1' });
    await expect(run(agent, 'unscoped', '/v1/agent/payouts').result).resolves.toBe(true);
    expect(await refusal(run(agent, 'unscoped', '/v1/payments').result)).toBe('forbidden');
    expect(await refusal(run(key({ kind: 'agent' }), 'unscoped', '/v1/agent/payouts').result)).toBe(
      'authentication_required',
    );
  });

  it('gives restricted keys only their scopes, write implying read, and nothing on unscoped routes', async () => {
    const writer = key({ kind: 'restricted', scopes: ['payments:write'] });
    const reader = key({ kind: 'restricted', scopes: ['payments:read'] });
    await expect(run(writer, 'readPayments', '/v1/payments').result).resolves.toBe(true);
    await expect(run(writer, 'writePayments', '/v1/payments').result).resolves.toBe(true);
    await expect(run(reader, 'readPayments', '/v1/payments').result).resolves.toBe(true);
    expect(await refusal(run(reader, 'writePayments', '/v1/payments').result)).toBe('forbidden');
    expect(await refusal(run(writer, 'unscoped', '/v1/account').result)).toBe('forbidden');
  });

  it('charges a known key even when it is then refused', async () => {
    const { result, charge } = run(
      key({ kind: 'restricted', scopes: [] }),
      'readPayments',
      '/v1/payments',
    );
    expect(await refusal(result)).toBe('forbidden');
    expect(charge).toHaveBeenCalledTimes(1);
  });
});
