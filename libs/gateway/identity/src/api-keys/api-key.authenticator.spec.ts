import type { XaalisConfig } from '@xaalis/config';
import type { PrismaClient } from '@xaalis/database';
import { DomainError, FixedClock, hashSecret, randomToken } from '@xaalis/kernel';
import type { AgentKey, AgentKeyLookup } from './agent-key-lookup';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeyAuthenticator } from './api-key.authenticator';
import { newApiKeySecret } from './api-key-secret';
import type { ApiKeyUsageRecorder } from './api-key-usage.recorder';

const HASH_KEY = 'h'.repeat(48);

/** The cache, remembering every name it was given for an entry. */
class WatchedCache extends ApiKeyCache {
  readonly names: string[] = [];
  override set(...args: Parameters<ApiKeyCache['set']>): void {
    this.names.push(args[0]);
    super.set(...args);
  }
}

function setUp() {
  const issued = newApiKeySecret('secret', 'test', HASH_KEY);
  const rows = new Map([
    [
      issued.secretHash,
      {
        id: 'key_1',
        merchantId: 'mer_1',
        mode: 'test',
        kind: 'secret',
        scopes: [],
        secretHash: issued.secretHash,
        revokedAt: null,
        scheduledRevokeAt: null,
      },
    ],
  ]);
  const findUnique = jest.fn(async ({ where }: { where: { secretHash: string } }) => {
    return rows.get(where.secretHash) ?? null;
  });
  // Agent keys are issued by the payouts app; only their shape matters here.
  const agentSecret = `ak_test_${randomToken(32)}`;
  const agentIssued = { secret: agentSecret, secretHash: hashSecret(agentSecret, HASH_KEY) };
  const agentKeys = new Map<string, AgentKey>([
    [
      agentIssued.secretHash,
      {
        keyId: 'agk_1',
        merchantId: 'mer_1',
        mode: 'test',
        kind: 'agent',
        scopes: [],
        secretHash: agentIssued.secretHash,
        revokedAt: null,
        scheduledRevokeAt: null,
        agentWalletId: 'aw_1',
      },
    ],
  ]);
  const findAgentKey = jest.fn(async (secretHash: string) => agentKeys.get(secretHash) ?? null);
  const clock = new FixedClock(new Date('2026-11-25T10:00:00.000Z'));
  const cache = new WatchedCache(5_000);
  const authenticator = new ApiKeyAuthenticator(
    { apiKey: { findUnique } } as unknown as PrismaClient,
    { secretHashKey: HASH_KEY } as XaalisConfig,
    clock,
    cache,
    { record: async () => undefined } as unknown as ApiKeyUsageRecorder,
    { findBySecretHash: findAgentKey } satisfies AgentKeyLookup,
  );
  return {
    secret: issued.secret,
    agentSecret: agentIssued.secret,
    findUnique,
    findAgentKey,
    clock,
    cache,
    authenticator,
  };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: unknown) => (error instanceof DomainError ? error.code : error),
  );

describe('ApiKeyAuthenticator', () => {
  it('finds a key by its keyed hash once, then from the cache until the TTL runs out', async () => {
    const { secret, findUnique, clock, authenticator } = setUp();

    expect((await authenticator.authenticate(secret)).keyId).toBe('key_1');
    expect((await authenticator.authenticate(secret)).keyId).toBe('key_1');
    expect(findUnique).toHaveBeenCalledTimes(1);
    expect(findUnique).toHaveBeenCalledWith({
      where: { secretHash: hashSecret(secret, HASH_KEY) },
    });

    clock.set(new Date('2026-11-25T10:00:05.000Z'));
    await authenticator.authenticate(secret);
    expect(findUnique).toHaveBeenCalledTimes(2);
  });

  it('never takes another secret for a cached one, however close', async () => {
    const { secret, findUnique, authenticator } = setUp();
    await authenticator.authenticate(secret);
    const last = secret.at(-1) === 'a' ? 'b' : 'a';
    const near = `${secret.slice(0, -1)}${last}`;

    expect(await refusal(authenticator.authenticate(near))).toBe('authentication_required');
    expect(await refusal(authenticator.authenticate(near))).toBe('authentication_required');
    // The unknown secret was looked up once, then remembered as unknown.
    expect(findUnique).toHaveBeenCalledTimes(2);
    expect(await refusal(authenticator.authenticate(secret.replace('_test_', '_live_')))).toBe(
      'authentication_required',
    );
  });

  it('keeps neither the secret nor its keyed hash as a cache name', async () => {
    const { secret, cache, authenticator } = setUp();
    await authenticator.authenticate(secret);

    expect(cache.names).toHaveLength(1);
    expect(cache.names[0]).not.toContain(secret);
    expect(cache.names[0]).not.toBe(hashSecret(secret, HASH_KEY));
  });

  it('asks the agent key lookup for ak_ secrets only, and caches its answer like a key row', async () => {
    const { agentSecret, findUnique, findAgentKey, authenticator } = setUp();

    const key = await authenticator.authenticate(agentSecret);
    await authenticator.authenticate(agentSecret);

    expect(key).toMatchObject({ keyId: 'agk_1', kind: 'agent', agentWalletId: 'aw_1' });
    expect(findAgentKey).toHaveBeenCalledTimes(1);
    expect(findAgentKey).toHaveBeenCalledWith(hashSecret(agentSecret, HASH_KEY));
    expect(findUnique).not.toHaveBeenCalled();
  });

  it('refuses an agent key the lookup does not know, or one of the other mode, as 401', async () => {
    const { agentSecret, findAgentKey, authenticator } = setUp();

    const unknown = agentSecret.replace(/.$/, (last) => (last === 'a' ? 'b' : 'a'));
    expect(await refusal(authenticator.authenticate(unknown))).toBe('authentication_required');
    expect(await refusal(authenticator.authenticate(agentSecret.replace('_test_', '_live_')))).toBe(
      'authentication_required',
    );
    expect(findAgentKey).toHaveBeenCalledTimes(2);
  });

  it('lets a lookup that cannot answer fail as itself, and caches nothing for it', async () => {
    const { agentSecret, findAgentKey, authenticator } = setUp();
    findAgentKey.mockRejectedValueOnce(new DomainError('unavailable', 'Try again later.'));

    expect(await refusal(authenticator.authenticate(agentSecret))).toBe('unavailable');
    expect((await authenticator.authenticate(agentSecret)).keyId).toBe('agk_1');
  });
});
