import { createHmac } from 'node:crypto';
import { constantTimeEqual, DomainError } from '@xaalis/kernel';

/**
 * Wave signs each webhook with `Wave-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]`, the hex
 * being HMAC-SHA256 under the webhook secret of the timestamp followed directly by the raw body
 * (no separator, as in Wave's own verification samples). Several v1 values appear while a
 * secret is being rotated; one match is enough.
 */
export const WAVE_SIGNATURE_TOLERANCE_SECONDS = 300;

export interface WaveSignatureHeader {
  timestamp: number;
  signatures: string[];
}

export function parseWaveSignatureHeader(header: string): WaveSignatureHeader | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const cut = part.indexOf('=');
    if (cut <= 0) continue;
    const key = part.slice(0, cut).trim();
    const value = part.slice(cut + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === 'v1' && value.length > 0) {
      signatures.push(value.toLowerCase());
    }
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

export function waveSignature(secret: string, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}${rawBody}`).digest('hex');
}

/** Throws DomainError('authentication_required') unless the header is Wave's, fresh, for this body. */
export function verifyWaveSignature(input: {
  header: string | undefined;
  rawBody: string;
  secret: string;
  now: Date;
}): void {
  const parsed = input.header === undefined ? null : parseWaveSignatureHeader(input.header);
  if (parsed === null) {
    throw new DomainError('authentication_required', 'Missing or malformed Wave-Signature header.');
  }
  const age = Math.abs(input.now.getTime() / 1000 - parsed.timestamp);
  if (age > WAVE_SIGNATURE_TOLERANCE_SECONDS) {
    throw new DomainError('authentication_required', 'The Wave-Signature timestamp is too old.');
  }
  const expected = waveSignature(input.secret, parsed.timestamp, input.rawBody);
  // Every candidate is compared, so the time taken does not tell which one matched.
  let matched = false;
  for (const candidate of parsed.signatures) {
    if (constantTimeEqual(candidate, expected)) matched = true;
  }
  if (!matched) {
    throw new DomainError('authentication_required', 'The Wave-Signature does not match.');
  }
}
