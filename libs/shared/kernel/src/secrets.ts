import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 32 random characters of base62: about 190 bits, well above the 128 the contract asks. */
export function randomToken(length = 32): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (const byte of bytes) {
    if (byte >= 248) continue; // 248 = 62 * 4: keeps the draw uniform
    out += BASE62[byte % 62];
    if (out.length === length) return out;
  }
  return out + randomToken(length - out.length);
}

/** A secret is stored only as this keyed hash; the key (pepper) never leaves the config. */
export function hashSecret(secret: string, pepper: string): string {
  return createHmac('sha256', pepper).update(secret).digest('hex');
}

/**
 * A plain SHA-256 of a secret, for keying what was already checked against its stored keyed hash
 * (a cache entry): it names the secret without revealing it, at a fraction of the HMAC's cost.
 * Never stored, and never a substitute for `hashSecret`.
 */
export function secretFingerprint(secret: string): string {
  return hash('sha256', secret, 'base64url');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

/** What a key looks like in lists: enough to recognise it, far too little to use it. */
export function displayPrefix(secret: string): string {
  const cut = secret.lastIndexOf('_') + 1;
  return `${secret.slice(0, cut)}${secret.slice(cut, cut + 4)}…${secret.slice(-4)}`;
}
