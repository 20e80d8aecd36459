import { BLOCKED_ADDRESS } from '@xaalis/net-guard';

export const SNIPPET_MAX_CHARS = 100;

/**
 * `last_error` for a receiver that answered outside 2xx: the status and at most a short, printable
 * extract of what it said, which is all the merchant needs to recognise their own error page.
 */
export function statusFailure(statusCode: number, body: Buffer): string {
  const prefix =
    statusCode >= 300 && statusCode < 400
      ? `HTTP ${statusCode}: redirects are not followed`
      : `HTTP ${statusCode}`;
  const extract = snippet(body);
  return extract === '' ? prefix : `${prefix}: ${extract}`;
}

/** Control characters and runs of blanks become one space; long text is cut. */
export function snippet(body: Buffer): string {
  const text = body
    .toString('utf8')
    .replace(/[\p{C}\s]+/gu, ' ')
    .trim();
  return text.length > SNIPPET_MAX_CHARS ? `${text.slice(0, SNIPPET_MAX_CHARS)}…` : text;
}

const BY_CODE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  EPIPE: 'connection closed by the receiver',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed, temporarily',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS: the certificate does not name this host',
  CERT_HAS_EXPIRED: 'TLS: the certificate has expired',
  CERT_NOT_YET_VALID: 'TLS: the certificate is not yet valid',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS: self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS: certificate not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS: certificate not trusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'TLS: certificate not trusted',
  UNABLE_TO_GET_ISSUER_CERT: 'TLS: certificate not trusted',
};

/**
 * `last_error` for a failed connection. Only fixed texts and error codes come out: a raw Node
 * message can carry the address a name resolved to, which is ours to know, not the merchant's.
 */
export function describeError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return 'connection failed';
  if (code === BLOCKED_ADDRESS && error instanceof Error) return error.message;
  const known = BY_CODE[code];
  if (known !== undefined) return `${known} (${code})`;
  if (/^ERR_SSL_|^ERR_TLS_/.test(code)) return `TLS handshake failed (${code})`;
  return /^[A-Z0-9_]{1,64}$/.test(code) ? `connection failed (${code})` : 'connection failed';
}
