import { readToken } from './orange-money-token';

describe('readToken', () => {
  it('reads the token and its lifetime as Sonatel sends them', () => {
    expect(
      readToken({
        access_token: 'eyJ.abc',
        token_type: 'bearer',
        expires_in: 299,
        scope: 'profile',
      }),
    ).toEqual({ token: 'eyJ.abc', expiresInSeconds: 299 });
    expect(readToken({ access_token: 'eyJ.abc', expires_in: '300' })?.expiresInSeconds).toBe(300);
  });

  it('keeps a token without a lifetime for a minute, and one with a zero lifetime not at all', () => {
    expect(readToken({ access_token: 'eyJ.abc' })?.expiresInSeconds).toBe(60);
    expect(readToken({ access_token: 'eyJ.abc', expires_in: 0 })?.expiresInSeconds).toBe(0);
  });

  it('has no token without an access_token', () => {
    expect(readToken({ expires_in: 299 })).toBeNull();
    expect(readToken({ access_token: '' })).toBeNull();
    expect(readToken('eyJ.abc')).toBeNull();
  });
});
