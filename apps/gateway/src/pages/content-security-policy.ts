import { randomBytes } from 'node:crypto';

/** CSP's base64-value grammar; anything else could end the directive and add new ones. */
const NONCE = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;

/** 144 random bits, base64: a fresh one per response. */
export const newCspNonce = (): string => randomBytes(18).toString('base64');

export function assertCspNonce(nonce: string): void {
  if (!NONCE.test(nonce)) throw new Error('CSP nonce must be 16+ base64 characters');
}

/**
 * The `Content-Security-Policy` value for every hosted page (checkout, sandbox, message).
 *
 * `form-action 'self'`: the only forms are the sandbox's Approve and Decline, which post to this
 * origin. Chromium and WebKit also check `form-action` against every redirect that follows a form
 * post, so those two handlers must answer with a redirect to this origin (the checkout page
 * `/checkout/{id}?cs=…`), never straight to the merchant's `return_url` or a provider, or the
 * browser stops on a CSP error. The customer leaves the origin by a link or by script
 * (`location`), which `form-action` does not govern, so listing every merchant's origin here is
 * not needed.
 */
export function contentSecurityPolicy(nonce: string): string {
  assertCspNonce(nonce);
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "form-action 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Every header these pages go out with. The pages carry the payment's client secret in their URL
 * and body, so nothing may cache them and no Referer may carry the URL to the merchant or the
 * provider.
 */
export function htmlPageHeaders(nonce: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': contentSecurityPolicy(nonce),
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  };
}
