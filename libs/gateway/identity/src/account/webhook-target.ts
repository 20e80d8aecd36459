import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { validationError } from '@xaalis/kernel';

/** Addresses a webhook must never reach: the service's own network, loopback, link-local, etc. */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

export function isBlockedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export type Resolve = (host: string) => Promise<string[]>;

const resolveAll: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * CONTRACT 9, at registration: a webhook target resolving to a private, loopback or link-local
 * address is refused unless its host is in WEBHOOK_ALLOWED_HOSTS. The dispatcher checks again at
 * connect time (DNS can change), so a name that does not resolve today is not refused here.
 */
export async function assertPublicWebhookTarget(
  url: string,
  allowedHosts: readonly string[],
  resolve: Resolve = resolveAll,
  field = 'webhook_url',
): Promise<void> {
  const host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (allowedHosts.includes(host)) return;
  let addresses: string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      return;
    }
  }
  if (addresses.some(isBlockedAddress)) {
    throw validationError(
      [{ field, issue: 'must not point to a private, loopback or link-local address' }],
      'This webhook URL points to a private network.',
    );
  }
}
