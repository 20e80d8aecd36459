import { isIP } from 'node:net';

/** An IP address as its bytes: 4 for IPv4, 16 for IPv6. */
export interface IpBytes {
  family: 4 | 6;
  bytes: Uint8Array;
}

/**
 * The bytes of an IP address, or undefined when the text is not one. `isIP` decides validity, so
 * the hand parsing below only ever sees well-formed text. A zone id (`fe80::1%eth0`) is dropped:
 * it picks an interface, not an address.
 */
export function parseIp(address: string): IpBytes | undefined {
  const bare = address.replace(/%.*$/, '');
  switch (isIP(bare)) {
    case 4:
      return { family: 4, bytes: Uint8Array.from(bare.split('.').map(Number)) };
    case 6:
      return { family: 6, bytes: parseIpv6(bare) };
    default:
      return undefined;
  }
}

function parseIpv6(text: string): Uint8Array {
  const groups = expandGroups(withoutDottedTail(text));
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  return bytes;
}

/** `::ffff:1.2.3.4` becomes `::ffff:102:304`, so every group is hex. */
function withoutDottedTail(text: string): string {
  const cut = text.lastIndexOf(':') + 1;
  const tail = text.slice(cut);
  if (!tail.includes('.')) return text;
  const [a, b, c, d] = tail.split('.').map(Number);
  return `${text.slice(0, cut)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

function expandGroups(text: string): number[] {
  const toNumbers = (part: string) =>
    part === '' ? [] : part.split(':').map((g) => parseInt(g, 16));
  const [head, tail] = text.split('::');
  if (tail === undefined) return toNumbers(head);
  const left = toNumbers(head);
  const right = toNumbers(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** Whether the first `length` bits of `bytes` equal those of `network`. */
export function inPrefix(bytes: Uint8Array, network: Uint8Array, length: number): boolean {
  for (let bit = 0; bit < length; bit += 8) {
    const mask = length - bit >= 8 ? 0xff : (0xff << (8 - (length - bit))) & 0xff;
    if ((bytes[bit / 8] & mask) !== (network[bit / 8] & mask)) return false;
  }
  return true;
}
