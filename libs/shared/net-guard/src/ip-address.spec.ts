import { inPrefix, parseIp } from './ip-address';

const hex = (address: string) => Buffer.from(parseIp(address)?.bytes ?? []).toString('hex');

describe('parseIp', () => {
  it('reads IPv4 into four bytes', () => {
    expect(parseIp('192.168.1.254')).toEqual({
      family: 4,
      bytes: Uint8Array.from([192, 168, 1, 254]),
    });
  });

  it('reads IPv6 with compression, a dotted tail and a zone id into sixteen bytes', () => {
    expect(hex('::1')).toBe('00000000000000000000000000000001');
    expect(hex('::')).toBe('00000000000000000000000000000000');
    expect(hex('fe80::1%eth0')).toBe('fe800000000000000000000000000001');
    expect(hex('2001:db8::8a2e:370:7334')).toBe('20010db80000000000008a2e03707334');
    expect(hex('::ffff:127.0.0.1')).toBe('00000000000000000000ffff7f000001');
    expect(hex('0:0:0:0:0:ffff:127.0.0.1')).toBe(hex('::ffff:7f00:1'));
    expect(hex('64:ff9b::10.0.0.1')).toBe('0064ff9b00000000000000000a000001');
    expect(hex('1:2:3:4:5:6:7:8')).toBe('00010002000300040005000600070008');
    expect(hex('1::')).toBe('00010000000000000000000000000000');
  });

  it('returns undefined for anything that is not an address', () => {
    for (const text of [
      '',
      'localhost',
      '127.1',
      '2130706433',
      '0x7f.0.0.1',
      '1.2.3.256',
      ':::',
      '[::1]',
    ]) {
      expect(parseIp(text)).toBeUndefined();
    }
  });
});

describe('inPrefix', () => {
  const bytes = (address: string) => parseIp(address)?.bytes ?? new Uint8Array();

  it('compares whole and partial bytes of the prefix', () => {
    expect(inPrefix(bytes('172.31.255.255'), bytes('172.16.0.0'), 12)).toBe(true);
    expect(inPrefix(bytes('172.32.0.0'), bytes('172.16.0.0'), 12)).toBe(false);
    expect(inPrefix(bytes('100.127.1.1'), bytes('100.64.0.0'), 10)).toBe(true);
    expect(inPrefix(bytes('100.128.0.0'), bytes('100.64.0.0'), 10)).toBe(false);
    expect(inPrefix(bytes('fdff::1'), bytes('fc00::'), 7)).toBe(true);
    expect(inPrefix(bytes('fe00::1'), bytes('fc00::'), 7)).toBe(false);
    expect(inPrefix(bytes('8.8.8.8'), bytes('0.0.0.0'), 0)).toBe(true);
  });
});
