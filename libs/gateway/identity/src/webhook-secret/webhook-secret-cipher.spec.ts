import { WebhookSecretCipher } from './webhook-secret-cipher';

const KEY = 'k'.repeat(40);

describe('WebhookSecretCipher', () => {
  const cipher = new WebhookSecretCipher(KEY);
  const secret = WebhookSecretCipher.newSecret();

  it('makes whsec_ secrets with at least 128 bits', () => {
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
  });

  it('round-trips, and never shows the secret in the ciphertext', () => {
    const encrypted = cipher.encrypt(secret, 'mer_1');
    expect(encrypted).not.toContain(secret.slice(6));
    expect(cipher.decrypt(encrypted, 'mer_1')).toBe(secret);
  });

  it('uses a fresh IV each time', () => {
    expect(cipher.encrypt(secret, 'mer_1')).not.toBe(cipher.encrypt(secret, 'mer_1'));
  });

  it('refuses a ciphertext moved to another merchant or tampered with', () => {
    const encrypted = cipher.encrypt(secret, 'mer_1');
    expect(() => cipher.decrypt(encrypted, 'mer_2')).toThrow('unreadable');
    expect(() => cipher.decrypt(`${encrypted.slice(0, -2)}AA`, 'mer_1')).toThrow('unreadable');
  });

  it('refuses under another key', () => {
    const encrypted = cipher.encrypt(secret, 'mer_1');
    expect(() => new WebhookSecretCipher('z'.repeat(40)).decrypt(encrypted, 'mer_1')).toThrow(
      'unreadable',
    );
  });
});
