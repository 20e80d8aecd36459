import { isAllowedHost, isLocalhostName, normalizeHost } from './host';

describe('host names', () => {
  it('normalise case, brackets, trailing dots and IPv6 spelling', () => {
    expect(normalizeHost('LocalHost.')).toBe('localhost');
    expect(normalizeHost('[::1]')).toBe('::1');
    expect(normalizeHost('[0:0:0:0:0:0:0:1]')).toBe('::1');
    expect(normalizeHost('Shop.Example.SN..')).toBe('shop.example.sn');
    expect(normalizeHost('fe80::1%eth0')).toBe('fe80::1%eth0');
  });

  it('match allowed hosts exactly, after normalising both sides', () => {
    expect(isAllowedHost('localhost.', ['LOCALHOST'])).toBe(true);
    expect(isAllowedHost('[::1]', ['0:0::1'])).toBe(true);
    expect(isAllowedHost('hooks.localhost', ['localhost'])).toBe(false);
    expect(isAllowedHost('evil-localhost', ['localhost'])).toBe(false);
    expect(isAllowedHost('localhost', [])).toBe(false);
    expect(isAllowedHost('', [''])).toBe(false);
  });

  it('recognise localhost and the names under it', () => {
    expect(isLocalhostName('localhost')).toBe(true);
    expect(isLocalhostName('LOCALHOST.')).toBe(true);
    expect(isLocalhostName('api.localhost')).toBe(true);
    expect(isLocalhostName('localhost.example.com')).toBe(false);
    expect(isLocalhostName('notlocalhost')).toBe(false);
  });
});
