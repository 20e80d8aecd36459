import { inPrefix, parseIp, type IpBytes } from './ip-address';

interface Range {
  network: Uint8Array;
  length: number;
}

const range = (cidr: string): Range => {
  const [address, length] = cidr.split('/');
  const parsed = parseIp(address);
  if (!parsed) throw new Error(`bad range ${cidr}`);
  return { network: parsed.bytes, length: Number(length) };
};

const within = (bytes: Uint8Array, ranges: readonly Range[]) =>
  ranges.some((r) => inPrefix(bytes, r.network, r.length));

/**
 * IPv4 a webhook must never reach: every block of the IANA special-purpose registry that is not
 * globally reachable, plus the deprecated 6to4 relay anycast. 240.0.0.0/4 covers 255.255.255.255.
 */
const IPV4_BLOCKED = [
  '0.0.0.0/8', // "this network"; 0.0.0.0 reaches the local host on Linux
  '10.0.0.0/8',
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8',
  '169.254.0.0/16', // link-local, cloud metadata
  '172.16.0.0/12',
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // TEST-NET-1
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16',
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // TEST-NET-2
  '203.0.113.0/24', // TEST-NET-3
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, broadcast
].map(range);

/**
 * IPv6 is judged by what is allowed rather than what is not: only global unicast (2000::/3) can
 * be a webhook target, which refuses unspecified, loopback, IPv4-compatible, ULA, link-local,
 * site-local, multicast, discard-only and every unassigned block at once. Inside 2000::/3 these
 * are still refused:
 */
const GLOBAL_UNICAST = range('2000::/3');
const IPV6_BLOCKED_IN_GLOBAL = [
  '2001::/23', // IETF protocol assignments: Teredo, benchmarking, ORCHID
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation (RFC 9637)
].map(range);

/** Prefixes that carry an IPv4 address, judged by that address; anything else there is refused. */
const EMBEDDING = [
  { ...range('::ffff:0:0/96'), ipv4At: 12 }, // IPv4-mapped: the socket goes to the IPv4 address
  { ...range('64:ff9b::/96'), ipv4At: 12 }, // NAT64 well-known prefix
  { ...range('2002::/16'), ipv4At: 2 }, // 6to4
];

/**
 * Whether a webhook may not connect to this address. Text that is not an IP address is refused
 * too: a caller that gets here with a name has skipped resolution.
 */
export function isBlockedAddress(address: string): boolean {
  const ip = parseIp(address);
  return ip === undefined || isBlockedIp(ip);
}

function isBlockedIp({ family, bytes }: IpBytes): boolean {
  if (family === 4) return within(bytes, IPV4_BLOCKED);
  const embedding = EMBEDDING.find((e) => inPrefix(bytes, e.network, e.length));
  if (embedding) {
    return within(bytes.subarray(embedding.ipv4At, embedding.ipv4At + 4), IPV4_BLOCKED);
  }
  return (
    !inPrefix(bytes, GLOBAL_UNICAST.network, GLOBAL_UNICAST.length) ||
    within(bytes, IPV6_BLOCKED_IN_GLOBAL)
  );
}
