import { createHmac } from 'node:crypto';

export interface SignatureHeaderInput {
  /** The endpoint's secrets; during a rotation both the old and the new one. */
  secrets: readonly string[];
  /** Unix seconds. */
  timestamp: number;
  /** The exact bytes sent as the body. */
  rawBody: string | Uint8Array;
}

/**
 * Hex HMAC-SHA256 under `secret` over `<t>.<raw body>` (spec 6). The body goes in as bytes, never
 * re-encoded, so a receiver hashing the bytes it got computes the same value.
 */
export function computeSignature(
  secret: string,
  timestamp: number,
  rawBody: string | Uint8Array,
): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** `t=<t>,v1=<hex>[,v1=<hex>]`: one `v1` per secret, so receivers on either secret accept it. */
export function signatureHeader({ secrets, timestamp, rawBody }: SignatureHeaderInput): string {
  if (secrets.length === 0) throw new TypeError('signatureHeader needs at least one secret');
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError('timestamp must be whole unix seconds');
  }
  const signatures = secrets.map((secret) => `v1=${computeSignature(secret, timestamp, rawBody)}`);
  return [`t=${timestamp}`, ...signatures].join(',');
}
