import { isHttpsUrl, metadataProblem, PHONE_PATTERN } from './validators';

describe('PHONE_PATTERN', () => {
  it.each(['+221771234567', '+221700000002'])('accepts %s', (phone) => {
    expect(PHONE_PATTERN.test(phone)).toBe(true);
  });

  it.each([
    '221771234567',
    '+22177123456',
    '+2217712345678',
    '+221671234567',
    '+33612345678',
    ' +221771234567',
  ])('refuses %s', (phone) => {
    expect(PHONE_PATTERN.test(phone)).toBe(false);
  });
});

describe('metadataProblem', () => {
  it('accepts an object of short strings, and an empty one', () => {
    expect(metadataProblem({ order: '42', note: 'x'.repeat(500) })).toBeUndefined();
    expect(metadataProblem({})).toBeUndefined();
  });

  it.each([
    [null, 'must be an object whose values are strings'],
    [['a'], 'must be an object whose values are strings'],
    ['text', 'must be an object whose values are strings'],
    [{ n: 1 }, 'value of "n" must be a string'],
    [{ long: 'x'.repeat(501) }, 'value of "long" must be at most 500 characters'],
    [{ ['k'.repeat(41)]: 'v' }, 'keys must be 1 to 40 characters'],
    [{ '': 'v' }, 'keys must be 1 to 40 characters'],
    [
      Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])),
      'must have at most 50 keys',
    ],
  ])('refuses %j: %s', (value, problem) => {
    expect(metadataProblem(value)).toBe(problem);
  });
});

describe('isHttpsUrl', () => {
  it.each(['https://example.com/hooks', 'https://localhost:8443/x'])('accepts %s', (url) => {
    expect(isHttpsUrl(url)).toBe(true);
  });

  it.each([
    'http://example.com',
    'ftp://example.com',
    'example.com',
    'https://user:pw@example.com',
    42,
    `https://e.com/${'x'.repeat(2048)}`,
  ])('refuses %s', (url) => {
    expect(isHttpsUrl(url)).toBe(false);
  });
});
