import { DomainError } from '@xaalis/kernel';
import { readIdempotencyKey } from './idempotency-key';
import { fingerprintOf, stableStringify } from './request-fingerprint';

describe('fingerprintOf', () => {
  const request = (
    body: unknown,
    params: Record<string, string> = {},
    query: Record<string, string> = {},
  ) => ({
    body,
    params,
    query,
  });

  it('is the same for the same JSON in another key order', () => {
    expect(fingerprintOf(request({ a: 1, b: { c: [1, 2], d: 'x' } }))).toBe(
      fingerprintOf(request({ b: { d: 'x', c: [1, 2] }, a: 1 })),
    );
  });

  it('differs for another body, path parameter or query', () => {
    const base = fingerprintOf(request({ amount: 100 }, { id: 'sub_1' }));
    expect(fingerprintOf(request({ amount: 101 }, { id: 'sub_1' }))).not.toBe(base);
    expect(fingerprintOf(request({ amount: 100 }, { id: 'sub_2' }))).not.toBe(base);
    expect(fingerprintOf(request({ amount: 100 }, { id: 'sub_1' }, { cs: 'x' }))).not.toBe(base);
  });

  it('is a SHA-256 in hex, and no body equals a null one', () => {
    expect(fingerprintOf(request(undefined))).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprintOf(request(undefined))).toBe(fingerprintOf(request(null)));
  });
});

describe('stableStringify', () => {
  it('sorts keys, drops undefined members and keeps array order', () => {
    expect(stableStringify({ b: 1, a: [3, undefined, { z: 1, y: undefined }] })).toBe(
      '{"a":[3,null,{"z":1}],"b":1}',
    );
  });
});

describe('readIdempotencyKey', () => {
  it('returns a key of 1 to 255 characters', () => {
    expect(readIdempotencyKey('k', true)).toBe('k');
    expect(readIdempotencyKey('x'.repeat(255), true)).toBe('x'.repeat(255));
  });

  it('takes a header sent once as Node lists it (headersDistinct)', () => {
    expect(readIdempotencyKey(['k'], true)).toBe('k');
  });

  it('lets an optional key be absent', () => {
    expect(readIdempotencyKey(undefined, false)).toBeUndefined();
  });

  it.each([
    [undefined, 'is required for this operation'],
    ['', 'must be 1 to 255 characters'],
    ['x'.repeat(256), 'must be 1 to 255 characters'],
    [['a', 'b'], 'must be sent once'],
    ['cl\u00c3\u00a9', 'must be printable ASCII characters'],
    ['a\tb', 'must be printable ASCII characters'],
  ])('refuses %j with a validation error', (header, issue) => {
    let caught: unknown;
    try {
      readIdempotencyKey(header, true);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DomainError);
    expect(caught).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'idempotency-key', issue }],
    });
  });
});
