import { loadConfig } from '@xaalis/config';
import { DomainError } from '@xaalis/kernel';
import type { RequestContext } from '../request-context';
import { credentialKeyOf, RateLimits } from './rate-limits';

const config = {
  ...loadConfig({}),
  rateLimitPerSecond: 1,
  rateLimitBurst: 2,
  ipRateLimitPerSecond: 1,
  ipRateLimitBurst: 1,
};

function request(ip: string, context?: RequestContext) {
  return { ip, xaalis: context };
}

async function refusal(run: () => Promise<void>): Promise<DomainError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected rate_limited');
}

describe('RateLimits', () => {
  const keyed = (keyId: string): RequestContext => ({
    credential: { kind: 'secret_key', keyId },
    merchantId: 'mer_1',
    mode: 'test',
    ip: '10.0.0.1',
  });

  it('charges a key its own bucket, whatever the IP', async () => {
    const limits = new RateLimits(config);
    await limits.charge(request('1.1.1.1', keyed('key_a')), 'credential');
    await limits.charge(request('2.2.2.2', keyed('key_a')), 'credential');
    const error = await refusal(() =>
      limits.charge(request('3.3.3.3', keyed('key_a')), 'credential'),
    );
    expect(error.code).toBe('rate_limited');
    // A burst of 2 at 1 per second is a window of 2 s.
    expect(error.details).toEqual({ retry_after: 2 });
    await expect(
      limits.charge(request('1.1.1.1', keyed('key_b')), 'credential'),
    ).resolves.toBeUndefined();
  });

  it('charges anonymous callers per IP', async () => {
    const limits = new RateLimits(config);
    const anonymous: RequestContext = { credential: { kind: 'anonymous' }, ip: '1.1.1.1' };
    await limits.charge(request('1.1.1.1', anonymous), 'credential');
    expect((await refusal(() => limits.charge(request('1.1.1.1'), 'ip'))).code).toBe(
      'rate_limited',
    );
    await expect(limits.charge(request('2.2.2.2'), 'ip')).resolves.toBeUndefined();
  });

  it('charges one request once per kind, however many guards ask', async () => {
    const limits = new RateLimits(config);
    const same = request('1.1.1.1');
    await limits.charge(same, 'ip');
    await expect(limits.charge(same, 'ip')).resolves.toBeUndefined();
    expect((await refusal(() => limits.charge(request('1.1.1.1'), 'ip'))).code).toBe(
      'rate_limited',
    );
  });

  it('reads the context the auth guard left on the raw request', async () => {
    const limits = new RateLimits(config);
    const viaRaw = () => ({ ip: '9.9.9.9', raw: { xaalis: keyed('key_raw') } });
    await limits.charge(viaRaw(), 'credential');
    await limits.charge(viaRaw(), 'credential');
    expect((await refusal(() => limits.charge(viaRaw(), 'credential'))).code).toBe('rate_limited');
  });
});

describe('credentialKeyOf', () => {
  it('keys API keys by key id, sessions by user, and nothing else', () => {
    expect(credentialKeyOf({ kind: 'restricted_key', keyId: 'key_1', scopes: [] })).toBe(
      'key:key_1',
    );
    expect(credentialKeyOf({ kind: 'agent_key', keyId: 'agk_1', agentWalletId: 'aw_1' })).toBe(
      'key:agk_1',
    );
    expect(
      credentialKeyOf({ kind: 'session', userId: 'usr_1', sessionId: 's', role: 'owner' }),
    ).toBe('user:usr_1');
    expect(credentialKeyOf({ kind: 'client_secret', paymentId: 'pay_1' })).toBeUndefined();
    expect(credentialKeyOf({ kind: 'anonymous' })).toBeUndefined();
  });
});
