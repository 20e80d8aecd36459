import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { DomainError, randomToken } from '@xaalis/kernel';

const VERSION = 'v1';

/**
 * The webhook secret is shown once, yet the dispatcher must sign every delivery with it, so a hash
 * is not enough: it is kept encrypted (AES-256-GCM), in events and in the read model alike, under a
 * key derived from `SECRET_HASH_KEY`. The merchant id is the associated data, so a ciphertext copied
 * onto another merchant does not decrypt.
 */
export class WebhookSecretCipher {
  private readonly key: Buffer;

  constructor(secretHashKey: string) {
    this.key = Buffer.from(hkdfSync('sha256', secretHashKey, 'xaalis', 'webhook-secret-v1', 32));
  }

  static newSecret(): string {
    return `whsec_${randomToken(32)}`;
  }

  encrypt(secret: string, merchantId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(merchantId));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  decrypt(encrypted: string, merchantId: string): string {
    const [version, iv, tag, body] = encrypted.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) {
      throw new DomainError('internal_error', 'The stored webhook secret is unreadable.');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(merchantId));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new DomainError('internal_error', 'The stored webhook secret is unreadable.');
    }
  }
}
