import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

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
