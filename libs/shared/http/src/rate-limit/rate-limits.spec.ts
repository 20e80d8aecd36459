import { loadConfig } from '@xaalis/config';
import { DomainError, FixedClock } from '@xaalis/kernel';
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

function refusal(run: () => void): DomainError {
  try {
    run();
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

  it('charges a key its own bucket, whatever the IP', () => {
    const limits = new RateLimits(config, new FixedClock(new Date(0)));
    limits.enforce(request('1.1.1.1', keyed('key_a')), 'credential');
    limits.enforce(request('2.2.2.2', keyed('key_a')), 'credential');
    const error = refusal(() => limits.enforce(request('3.3.3.3', keyed('key_a')), 'credential'));
    expect(error.code).toBe('rate_limited');
    expect(error.details).toEqual({ retry_after: 1 });
    expect(() => limits.enforce(request('1.1.1.1', keyed('key_b')), 'credential')).not.toThrow();
  });

  it('charges anonymous callers per IP', () => {
    const limits = new RateLimits(config, new FixedClock(new Date(0)));
    const anonymous: RequestContext = { credential: { kind: 'anonymous' }, ip: '1.1.1.1' };
    limits.enforce(request('1.1.1.1', anonymous), 'credential');
    expect(refusal(() => limits.enforce(request('1.1.1.1'), 'ip')).code).toBe('rate_limited');
    expect(() => limits.enforce(request('2.2.2.2'), 'ip')).not.toThrow();
  });

  it('charges one request once per kind, however many guards ask', () => {
    const limits = new RateLimits(config, new FixedClock(new Date(0)));
    const same = request('1.1.1.1');
    limits.enforce(same, 'ip');
    expect(() => limits.enforce(same, 'ip')).not.toThrow();
    expect(refusal(() => limits.enforce(request('1.1.1.1'), 'ip')).code).toBe('rate_limited');
  });

  it('reads the context the auth guard left on the raw request', () => {
    const limits = new RateLimits(config, new FixedClock(new Date(0)));
    const viaRaw = () => ({ ip: '9.9.9.9', raw: { xaalis: keyed('key_raw') } });
    limits.enforce(viaRaw(), 'credential');
    limits.enforce(viaRaw(), 'credential');
    expect(refusal(() => limits.enforce(viaRaw(), 'credential')).code).toBe('rate_limited');
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
