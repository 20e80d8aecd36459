import { hashSecret } from '@xaalis/kernel';
import { newApiKeySecret, parseBearerSecret } from './api-key-secret';
import { scopesAllow } from '@xaalis/identity-domain';

const HASH_KEY = 'h'.repeat(40);

describe('API key secrets', () => {
  it('carry the kind and mode in their prefix and keep only a keyed hash', () => {
    const made = newApiKeySecret('restricted', 'live', HASH_KEY);
    expect(made.secret).toMatch(/^rk_live_[0-9A-Za-z]{32}$/);
    expect(made.secretHash).toBe(hashSecret(made.secret, HASH_KEY));
    expect(made.displayPrefix).toMatch(/^rk_live_.{4}….{4}$/);
    expect(made.displayPrefix).not.toContain(made.secret.slice(8, 20));
  });

  it.each(['test', 'live'] as const)(
    'make %s agent keys, which the bearer guard reads as agent keys of their mode',
    (mode) => {
      const made = newApiKeySecret('agent', mode, HASH_KEY);
      expect(made.secret).toMatch(new RegExp(`^ak_${mode}_[0-9A-Za-z]{32}$`));
      expect(parseBearerSecret(made.secret)).toEqual({ type: 'agent', mode });
      expect(made.secretHash).toBe(hashSecret(made.secret, HASH_KEY));
      expect(newApiKeySecret('agent', mode, HASH_KEY).secret).not.toBe(made.secret);
    },
  );

  it('parse the three bearer types and refuse anything else', () => {
    expect(parseBearerSecret(newApiKeySecret('secret', 'test', HASH_KEY).secret)).toEqual({
      type: 'secret',
      mode: 'test',
    });
    expect(parseBearerSecret(`ak_live_${'a'.repeat(32)}`)).toEqual({ type: 'agent', mode: 'live' });
    for (const bad of [
      '',
      'sk_test_',
      'sk_prod_' + 'a'.repeat(32),
      'pk_test_' + 'a'.repeat(32),
      'sk_test_' + 'a'.repeat(31) + '!',
    ]) {
      expect(parseBearerSecret(bad)).toBeNull();
    }
  });
});

describe('scopes', () => {
  it('let write imply read, never the reverse', () => {
    expect(scopesAllow(['payments:write'], 'payments', 'read')).toBe(true);
    expect(scopesAllow(['payments:read'], 'payments', 'read')).toBe(true);
    expect(scopesAllow(['payments:read'], 'payments', 'write')).toBe(false);
    expect(scopesAllow(['payments:write'], 'refunds', 'read')).toBe(false);
  });
});
