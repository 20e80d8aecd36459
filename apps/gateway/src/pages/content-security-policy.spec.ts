import { contentSecurityPolicy, htmlPageHeaders, newCspNonce } from './content-security-policy';
import { TEST_NONCE } from './testing/page-markup';

describe('contentSecurityPolicy', () => {
  it('allows only nonce-bearing scripts and styles and same-origin calls and forms', () => {
    expect(contentSecurityPolicy(TEST_NONCE)).toBe(
      `default-src 'none'; script-src 'nonce-${TEST_NONCE}'; style-src 'nonce-${TEST_NONCE}'; ` +
        "connect-src 'self'; form-action 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'",
    );
  });

  it.each([
    ["abc'; script-src *", 'a quote and a semicolon would add a directive'],
    ['short', 'too short to be unguessable'],
    ['AAAAAAAAAAAAAAAA AAAA', 'a space'],
    ['', 'empty'],
  ])('refuses the nonce %p (%s)', (nonce) => {
    expect(() => contentSecurityPolicy(nonce)).toThrow(/nonce/);
  });

  it('accepts what newCspNonce makes, and never the same twice', () => {
    const first = newCspNonce();
    expect(contentSecurityPolicy(first)).toContain(`'nonce-${first}'`);
    expect(newCspNonce()).not.toBe(first);
  });
});

describe('htmlPageHeaders', () => {
  it('sends the policy and keeps the client secret out of caches and Referer headers', () => {
    expect(htmlPageHeaders(TEST_NONCE)).toEqual({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': contentSecurityPolicy(TEST_NONCE),
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    });
  });
});
