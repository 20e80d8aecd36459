import { BlockedAddressError } from '@xaalis/net-guard';
import { describeError, snippet, statusFailure } from './failure-text';

const withCode = (code: unknown, message = 'connect ECONNREFUSED 10.1.2.3:443') =>
  Object.assign(new Error(message), { code });

describe('last_error texts', () => {
  it('name connection and TLS failures by fixed text and code, never by the raw message', () => {
    expect(describeError(withCode('ECONNREFUSED'))).toBe('connection refused (ECONNREFUSED)');
    expect(describeError(withCode('ENOTFOUND', 'getaddrinfo ENOTFOUND internal.corp'))).toBe(
      'host not found (ENOTFOUND)',
    );
    expect(
      describeError(
        withCode('ERR_TLS_CERT_ALTNAME_INVALID', "Host: x. is not in the cert's altnames: DNS:y"),
      ),
    ).toBe('TLS: the certificate does not name this host (ERR_TLS_CERT_ALTNAME_INVALID)');
    expect(describeError(withCode('ERR_SSL_WRONG_VERSION_NUMBER'))).toBe(
      'TLS handshake failed (ERR_SSL_WRONG_VERSION_NUMBER)',
    );
    expect(describeError(withCode('EMFILE'))).toBe('connection failed (EMFILE)');
    expect(describeError(withCode('not a code: 10.1.2.3'))).toBe('connection failed');
    expect(describeError(withCode(42))).toBe('connection failed');
    expect(describeError(new Error('socket hang up 10.1.2.3'))).toBe('connection failed');
    expect(describeError(null)).toBe('connection failed');
  });

  it('pass the guard refusal on as it is, without the resolved address', () => {
    const text = describeError(new BlockedAddressError('hooks.shop.sn', '10.1.2.3'));
    expect(text).toBe(
      'blocked: hooks.shop.sn resolves to a private, loopback or link-local address',
    );
  });

  it('give the status and a cut, printable snippet of the answer', () => {
    expect(statusFailure(500, Buffer.from(''))).toBe('HTTP 500');
    expect(statusFailure(400, Buffer.from('  {"error":\n\t"bad"}  '))).toBe(
      'HTTP 400: {"error": "bad"}',
    );
    expect(statusFailure(301, Buffer.from('Moved'))).toBe(
      'HTTP 301: redirects are not followed: Moved',
    );
    expect(statusFailure(503, Buffer.from('é'.repeat(150)))).toBe(`HTTP 503: ${'é'.repeat(100)}…`);
  });

  it('strip control characters, including escapes and NULs', () => {
    expect(snippet(Buffer.from('a\u0000b\u001b[2Jc\u007fd\r\ne'))).toBe('a b [2Jc d e');
    expect(snippet(Buffer.from([0xff, 0xfe, 0x41]))).toBe('��A');
  });
});
