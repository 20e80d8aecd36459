import { describeAnswer, headerValue, isDefinitiveRefusal } from './provider-http';

describe('isDefinitiveRefusal', () => {
  it.each([
    [400, true],
    [401, true],
    [403, true],
    [404, true],
    [409, true],
    [422, true],
    [408, false],
    [429, false],
    [500, false],
    [502, false],
    [503, false],
    [200, false],
    [302, false],
  ])('%i → %s', (status, refused) => {
    expect(isDefinitiveRefusal(status)).toBe(refused);
  });
});

describe('describeAnswer', () => {
  it('names the provider, the status and the error code the provider gave', () => {
    expect(describeAnswer('wave', 400, { code: 'request-validation-error', message: 'x' })).toBe(
      'wave answered 400 (request-validation-error)',
    );
    expect(describeAnswer('orange_money', 401, { error: 'invalid_client' })).toBe(
      'orange_money answered 401 (invalid_client)',
    );
    expect(describeAnswer('orange_money', 404, { title: 'Entity not found', status: '404' })).toBe(
      'orange_money answered 404 (Entity not found)',
    );
    expect(describeAnswer('wave', 502, undefined)).toBe('wave answered 502');
  });
});

describe('headerValue', () => {
  it('finds a header whatever its case', () => {
    expect(headerValue({ 'Wave-Signature': 'a' }, 'wave-signature')).toBe('a');
    expect(headerValue({ 'x-api-key': 'b' }, 'X-Api-Key')).toBe('b');
    expect(headerValue({ other: 'c', empty: undefined }, 'empty')).toBeUndefined();
  });
});
