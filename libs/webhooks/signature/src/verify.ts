import { timingSafeEqual } from 'node:crypto';
import { DEFAULT_TOLERANCE_SECONDS } from './headers';
import { computeSignature } from './sign';
import { WebhookVerificationError } from './verification-error';

/** Spec 2.10: what every delivery carries. `data.object` depends on `type`. */
export interface WebhookEvent<T = unknown> {
  id: string;
  type: string;
  livemode: boolean;
  created_at: string;
  data: { object: T };
}

export interface VerifyWebhookInput {
  /** The request body exactly as received: a string or the bytes, never parsed-then-stringified JSON. */
  rawBody: string | Uint8Array;
  /** The `Xaalis-Signature` header as the framework gives it (repeated headers may come as an array). */
  header: string | readonly string[] | null | undefined;
  /** The endpoint's `whsec_…` secret; while you roll it out, both the old and the new one. */
  secret: string | readonly string[];
  toleranceSeconds?: number;
  now?: Date;
}

/**
 * Checks a delivery (spec 6, Signature) and returns the event it carries, or throws
 * `WebhookVerificationError`. The signature is checked before the timestamp, so
 * `timestamp_out_of_tolerance` means an authentic but old message: a replay or a skewed clock.
 * The library depends on `node:crypto` only, so merchants can use it or copy it as it is.
 */
export function verifyWebhook<T = unknown>(input: VerifyWebhookInput): WebhookEvent<T> {
  const { rawBody, header, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = new Date() } = input;
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new TypeError(
      'rawBody must be the raw request body (string or Buffer); a parsed object cannot be verified',
    );
  }
  const { timestamp, signatures } = parseSignatureHeader(header);
  const secrets = typeof input.secret === 'string' ? [input.secret] : input.secret;
  if (
    !secrets.some((secret) => matchesAny(computeSignature(secret, timestamp, rawBody), signatures))
  ) {
    throw new WebhookVerificationError('no_matching_signature');
  }
  if (Math.abs(Math.floor(now.getTime() / 1000) - timestamp) > toleranceSeconds) {
    throw new WebhookVerificationError('timestamp_out_of_tolerance');
  }
  return parseEvent<T>(rawBody);
}

export interface ParsedSignatureHeader {
  timestamp: number;
  signatures: string[];
}

/** `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`; other schemes are skipped so a future `v2` breaks nobody. */
export function parseSignatureHeader(
  header: string | readonly string[] | null | undefined,
): ParsedSignatureHeader {
  const text = typeof header === 'string' ? header : (header ?? []).join(',');
  if (text.trim() === '') throw new WebhookVerificationError('missing_header');
  const timestamps = new Set<string>();
  const signatures: string[] = [];
  for (const item of text.split(',')) {
    const part = item.trim();
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) throw new WebhookVerificationError('bad_header');
    const [key, value] = [part.slice(0, eq), part.slice(eq + 1)];
    if (key === 't') timestamps.add(value);
    else if (key === 'v1') signatures.push(value);
  }
  // A proxy that repeats the header leaves the same t twice; two different ones are ambiguous.
  const [t] = [...timestamps];
  if (timestamps.size !== 1 || !/^\d{1,12}$/.test(t) || signatures.length === 0) {
    throw new WebhookVerificationError('bad_header');
  }
  return { timestamp: Number(t), signatures };
}

/** Constant time per candidate, and every candidate is compared: no early exit to time. */
function matchesAny(expected: string, candidates: readonly string[]): boolean {
  const wanted = Buffer.from(expected);
  let matched = false;
  for (const candidate of candidates) {
    const given = Buffer.from(candidate);
    const equal =
      given.length === wanted.length
        ? timingSafeEqual(given, wanted)
        : !timingSafeEqual(wanted, wanted);
    matched = equal || matched;
  }
  return matched;
}

function parseEvent<T>(rawBody: string | Uint8Array): WebhookEvent<T> {
  const text =
    typeof rawBody === 'string'
      ? rawBody
      : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength).toString('utf8');
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('bad_payload');
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw new WebhookVerificationError('bad_payload');
  }
  return event as WebhookEvent<T>;
}
